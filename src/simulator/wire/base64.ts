/**
 * Base64 for the simulator's signatures and keys: it writes the URL-safe alphabet with `=` padding
 * (the form the gateway has been seen to send) and reads either alphabet, padded or not.
 */

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/** Bytes as URL-safe base64 with `=` padding. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = bytes.subarray(i, i + 3)
    const n = ((chunk[0] ?? 0) << 16) | ((chunk[1] ?? 0) << 8) | (chunk[2] ?? 0)
    for (let k = 0; k < 4; k++) out += k <= chunk.length ? URL_SAFE[(n >>> (18 - 6 * k)) & 63] : '='
  }
  return out
}

function sextet(ch: string): number {
  const standard = STANDARD.indexOf(ch)
  return standard >= 0 ? standard : URL_SAFE.indexOf(ch)
}

/** Reads standard or URL-safe base64, padded or not; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const body = text.replace(/=+$/, '')
  if (body.length % 4 === 1) return null
  const out = new Uint8Array(Math.floor((body.length * 6) / 8))
  let acc = 0
  let held = 0
  let at = 0
  for (const ch of body) {
    const value = sextet(ch)
    if (value < 0) return null
    acc = ((acc << 6) | value) & 0xffffff
    held += 6
    if (held >= 8) {
      held -= 8
      out[at++] = (acc >>> held) & 0xff
    }
  }
  return out
}
