/** The QR code an authenticator app scans to set up two-factor sign-in. */
import { qrMatrix, qrSvg } from '../qr/qr.js'
import { otpauthUri } from '../security/totp.js'

/** The otpauth:// URI of `secret` for `email` at this store, as an SVG QR code. */
export function totpQrSvg(secret: string, store: string, email: string, title: string): string {
  // The Key Uri Format forbids a colon in the issuer and the account name.
  const issuer = store.replace(/:/g, ' ').trim() || 'Paylinks'
  const uri = otpauthUri(secret, { issuer, account: email.replace(/:/g, ' ') })
  return qrSvg(qrMatrix(uri), { title })
}
