/** SHA-256 on Web Crypto, for any runtime. */
import { toHex, utf8 } from './bytes.js'

/** SHA-256 of UTF-8 text, lower-case hex. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(text))))
}
