/**
 * Ledger keys as the network writes them (StrKey): base32 (RFC 4648, no padding) of a version
 * byte, 32 key bytes and their CRC16-XModem, low byte first. The simulator's own reading, so that
 * a fault in the client's StrKey code shows up against it (docs/decisions/simulator.md).
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** The version byte of each kind of key: `G…` accounts, `S…` secret seeds. */
const VERSION = { account: 6 << 3, seed: 18 << 3 } as const
export type KeyKind = keyof typeof VERSION

/** A StrKey is 35 bytes in 56 base32 characters. */
const KEY_TEXT_LENGTH = 56
const KEY_LENGTH = 32

/** CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final xor. */
function crc16(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) {
    for (let bit = 7; bit >= 0; bit--) {
      const carry = ((crc >> 15) ^ (byte >> bit)) & 1
      crc = (crc << 1) & 0xffff
      if (carry) crc ^= 0x1021
    }
  }
  return crc
}

function toBase32(bytes: Uint8Array): string {
  // 35 bytes are 280 bits, exactly 56 characters: no padding bits to fill.
  let bits = ''
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0')
  let out = ''
  for (let i = 0; i < bits.length; i += 5)
    out += BASE32[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)]
  return out
}

function fromBase32(text: string): Uint8Array | null {
  let bits = ''
  for (const ch of text) {
    const value = BASE32.indexOf(ch)
    if (value < 0) return null
    bits += value.toString(2).padStart(5, '0')
  }
  const out = new Uint8Array(Math.floor(bits.length / 8))
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2)
  return out
}

/** Writes 32 key bytes as a StrKey of the given kind. */
export function writeStrKey(kind: KeyKind, key: Uint8Array): string {
  if (key.length !== KEY_LENGTH) throw new TypeError('A ledger key is 32 bytes')
  const raw = new Uint8Array(KEY_LENGTH + 3)
  raw[0] = VERSION[kind]
  raw.set(key, 1)
  const crc = crc16(raw.subarray(0, KEY_LENGTH + 1))
  raw[KEY_LENGTH + 1] = crc & 0xff
  raw[KEY_LENGTH + 2] = crc >>> 8
  return toBase32(raw)
}

/** True when `text` is a well-formed StrKey of the given kind (length, alphabet, version, checksum). */
export function isStrKey(kind: KeyKind, text: unknown): boolean {
  if (typeof text !== 'string' || text.length !== KEY_TEXT_LENGTH) return false
  const raw = fromBase32(text)
  if (!raw || raw[0] !== VERSION[kind]) return false
  const crc = crc16(raw.subarray(0, KEY_LENGTH + 1))
  return raw[KEY_LENGTH + 1] === (crc & 0xff) && raw[KEY_LENGTH + 2] === crc >>> 8
}
