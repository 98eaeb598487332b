/**
 * Offline validation of ledger keys (Stellar StrKey): base32 (RFC 4648), a version byte, 32 bytes
 * of key and a CRC16-XModem checksum, little-endian (gateway-facts.md).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** Version bytes of the two kinds of key Paylinks meets. */
export const VERSION_BYTES = { accountId: 6 << 3, secretSeed: 18 << 3 } as const
export type StrKeyKind = keyof typeof VERSION_BYTES

function base32Decode(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 5) / 8))
  let bits = 0
  let value = 0
  let j = 0
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch)
    if (v < 0) return null
    value = (value << 5) | v
    bits += 5
    if (bits >= 8) {
      bits -= 8
      out[j++] = (value >>> bits) & 0xff
    }
  }
  return out
}

function base32Encode(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const b of bytes) {
    value = (value << 8) | b
    bits += 8
    while (bits >= 5) {
      bits -= 5
      out += ALPHABET[(value >>> bits) & 31]
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31]
  return out
}

/** CRC16-XModem (poly 0x1021, init 0). */
export function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0
  for (const b of bytes) {
    crc ^= b << 8
    for (let i = 0; i < 8; i++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

/** Decodes a StrKey of the given kind to its 32 key bytes, or null when it is not one. */
export function decodeStrKey(kind: StrKeyKind, key: string): Uint8Array | null {
  if (typeof key !== 'string' || key.length !== 56) return null
  const raw = base32Decode(key)
  if (raw?.length !== 35) return null
  if (raw[0] !== VERSION_BYTES[kind]) return null
  const payload = raw.subarray(0, 33)
  const crc = crc16xmodem(payload)
  if (raw[33] !== (crc & 0xff) || raw[34] !== crc >> 8) return null
  // The canonical encoding must round-trip (rejects non-zero padding bits in the last character).
  if (base32Encode(raw) !== key) return null
  return raw.slice(1, 33)
}

/** Encodes 32 key bytes as a StrKey of the given kind. */
export function encodeStrKey(kind: StrKeyKind, key: Uint8Array): string {
  if (key.length !== 32) throw new TypeError('A ledger key is 32 bytes')
  const payload = new Uint8Array(33)
  payload[0] = VERSION_BYTES[kind]
  payload.set(key, 1)
  const crc = crc16xmodem(payload)
  const raw = new Uint8Array(35)
  raw.set(payload)
  raw[33] = crc & 0xff
  raw[34] = crc >> 8
  return base32Encode(raw)
}

/** True for a well-formed secret seed (`S…`, 56 characters, checksum valid). */
export function isValidSecretSeed(key: string): boolean {
  return decodeStrKey('secretSeed', key) !== null
}

/** True for a well-formed public account id (`G…`, 56 characters, checksum valid). */
export function isValidAccountId(key: string): boolean {
  return decodeStrKey('accountId', key) !== null
}
