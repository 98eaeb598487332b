/**
 * The client and the simulator agree on the wire: amounts, StrKeys and signatures, each written
 * separately on both sides (docs/decisions/simulator.md). Each check also runs against a
 * deliberately broken variant of one side, to show that a bug on either side fails it.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  centimesToDzd,
  centimesToDzdNumber,
  centimesToDzdShort,
  decodeStrKey,
  encodeStrKey,
  GATEWAY_PUBLIC_KEY_PEM,
  isValidAccountId,
  isValidSecretSeed,
  parseDzd,
  signGatewayMessage,
  truncateMemo,
  verifyGatewaySignature,
} from '../../src/client/index.js'
import { SIMULATOR_PRIVATE_KEY_PEM, SIMULATOR_PUBLIC_KEY_PEM } from '../../src/simulator/index.js'
import {
  type Centimes,
  dzdNumber,
  dzdShortText,
  dzdText,
  ledgerMemo,
  readDzd,
} from '../../src/simulator/wire/amounts.js'
import { signMessage, verifyMessage } from '../../src/simulator/wire/signature.js'
import { isStrKey, type KeyKind, writeStrKey } from '../../src/simulator/wire/strkey.js'

/** The published test vector (gateway-facts.md), as in test/client/signature.test.ts. */
const VECTOR_MESSAGE = '1212123hicibsuccess100'
const VECTOR_SIGNATURE =
  'aECU3TRG2p0q4G7-IMLZdqIQU38jX8TRT1E4XXxN18loiOXd_779SXXrzluryxevtwJDCTLoy6nLOExLv0lYkflC9ISNmjRgbqLVRQcF9SJvl3HfjkYhn3CUOi5VReCqNCrVtQZFeqgD_l6XJG6UBNX77zUuOqMhFiTDlnnLwNJnC3TiFOCQzJungWcX9-iY4xXi0j_AN25Rm5To_QcIF-DO2DQnx9zZqQfdmm8pAw3_feYMt-FNKpgqnFIJKgfGPlfvCX8ILegu1QehmPYR7mKb5Cx-i3mLu7p1-sXePN-4HJfHpP0k0LxhQxkZByyllJiVF8IQIx4tNs-_Fp-huQ=='

/** Every amount both sides accept: 0 to 9 999 999 999 999.99 DZD (13 whole digits). */
const centimes = fc.integer({ min: 0, max: 999_999_999_999_999 })
const EDGE_AMOUNTS: Centimes[] = [
  0, 1, 5, 10, 99, 101, 5000, 12_345, 10_000_000_000, 999_999_999_999_999,
]

/** A formatter and a parser agree when every amount survives the trip, edge cases first. */
function amountsSurvive(
  format: (c: Centimes) => string | number,
  parse: (v: string | number) => Centimes | null,
) {
  fc.assert(
    fc.property(centimes, (c) => parse(format(c)) === c),
    { examples: EDGE_AMOUNTS.map((c) => [c]) },
  )
}

describe('amounts: the simulator and the client read each other', () => {
  it('the simulator formats, the client parses back the same centimes (text, short text, number)', () => {
    amountsSurvive(dzdText, parseDzd)
    amountsSurvive(dzdShortText, parseDzd)
    amountsSurvive(dzdNumber, parseDzd)
  })

  it('the client formats, the simulator parses back the same centimes (text, short text, number)', () => {
    amountsSurvive(centimesToDzd, readDzd)
    amountsSurvive(centimesToDzdShort, readDzd)
    amountsSurvive(centimesToDzdNumber, readDzd)
  })

  it('writes the same text and numbers on both sides', () => {
    fc.assert(
      fc.property(centimes, (c) => {
        expect(dzdText(c)).toBe(centimesToDzd(c))
        expect(dzdShortText(c)).toBe(centimesToDzdShort(c))
        expect(dzdNumber(c)).toBe(centimesToDzdNumber(c))
      }),
      { examples: EDGE_AMOUNTS.map((c) => [c]) },
    )
    expect([dzdText(1), dzdText(5000), dzdText(10_000_000_000), dzdText(12_345)]).toEqual([
      '0.01',
      '50.00',
      '100000000.00',
      '123.45',
    ])
  })

  it('accepts and refuses the same input (text with up to three decimals, numbers, garbage)', () => {
    const input = fc.oneof(
      fc.stringMatching(/^ ?\d{0,14}(\.\d{0,3})?\.? ?$/),
      fc.double({ noNaN: false }),
      fc.string(),
    )
    fc.assert(
      fc.property(input, (value) => readDzd(value) === parseDzd(value)),
      { examples: [['1.'], ['.5'], [' 12.34 '], ['1e3'], [-0], [1e21], ['٣']] },
    )
  })

  it('cuts memos to the same 28 bytes on both sides', () => {
    const memo = fc.string({
      unit: fc.constantFrom('a', ' ', 'é', 'م', '👍🏽', '🇩🇿', 'x'),
      maxLength: 40,
    })
    fc.assert(fc.property(memo, (text) => ledgerMemo(text) === truncateMemo(text)))
  })

  it('fails when one side drops the leading zero of the centimes (a bug the check must catch)', () => {
    const buggy = (c: Centimes) => `${Math.floor(c / 100)}.${c % 100}`
    expect(() => amountsSurvive(buggy, parseDzd)).toThrow()
  })
})

const keyBytes = fc.uint8Array({ minLength: 32, maxLength: 32 })
const KINDS: [KeyKind, 'accountId' | 'secretSeed', (key: string) => boolean][] = [
  ['account', 'accountId', isValidAccountId],
  ['seed', 'secretSeed', isValidSecretSeed],
]

/** The StrKey with the character at `at` replaced by another base32 character. */
function changeOne(key: string, at: number, shift: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  const i = at % key.length
  const next = alphabet[(alphabet.indexOf(key[i]!) + 1 + (shift % 31)) % 32]
  return key.slice(0, i) + next + key.slice(i + 1)
}

describe('StrKeys: the simulator and the client check each other', () => {
  it('keys written by either side pass the other’s check and carry the same bytes', () => {
    for (const [kind, clientKind, clientCheck] of KINDS) {
      fc.assert(
        fc.property(keyBytes, (bytes) => {
          const simKey = writeStrKey(kind, bytes)
          expect(simKey).toBe(encodeStrKey(clientKind, bytes))
          expect(clientCheck(simKey)).toBe(true)
          expect(decodeStrKey(clientKind, simKey)).toEqual(bytes)
          expect(isStrKey(kind, encodeStrKey(clientKind, bytes))).toBe(true)
        }),
      )
    }
  })

  it('a one-character change fails both checks, and so does a key of the other kind', () => {
    for (const [kind, clientKind, clientCheck] of KINDS) {
      fc.assert(
        fc.property(keyBytes, fc.nat(), fc.nat(), (bytes, at, shift) => {
          const changed = changeOne(writeStrKey(kind, bytes), at, shift)
          expect(isStrKey(kind, changed)).toBe(false)
          expect(clientCheck(changed)).toBe(false)
        }),
      )
      const other = KINDS.find(([k]) => k !== kind)!
      const key = encodeStrKey(other[1], new Uint8Array(32).fill(7))
      expect(isStrKey(kind, key)).toBe(false)
      expect(decodeStrKey(clientKind, key)).toBeNull()
    }
  })

  it('fails when one side writes the checksum high byte first (a bug the check must catch)', () => {
    const buggy = (bytes: Uint8Array) => {
      const key = writeStrKey('account', bytes)
      // Rewrite the key with its two checksum bytes swapped.
      const good = decodeBase32(key)
      ;[good[33], good[34]] = [good[34]!, good[33]!]
      return encodeBase32(good)
    }
    expect(() =>
      fc.assert(fc.property(keyBytes, (bytes) => isValidAccountId(buggy(bytes)))),
    ).toThrow()
  })
})

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
function decodeBase32(text: string): Uint8Array {
  const bits = [...text].map((ch) => ALPHABET.indexOf(ch).toString(2).padStart(5, '0')).join('')
  return Uint8Array.from(bits.match(/.{8}/g)!, (byte) => Number.parseInt(byte, 2))
}
function encodeBase32(bytes: Uint8Array): string {
  const bits = [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('')
  return bits
    .match(/.{5}/g)!
    .map((five) => ALPHABET[Number.parseInt(five, 2)])
    .join('')
}

/** Messages as the gateway builds them: query values (any script), a status and an amount. */
const message = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('a', '1', 'é', 'م', '👍', '&', '='), maxLength: 12 }),
    fc.constantFrom('success', 'failed', 'canceled', 'expired'),
    centimes,
  )
  .map(([values, status, amount]) => `${values}${status}${dzdShortText(amount)}`)

describe('signatures: the simulator and the client verify each other', () => {
  it('the simulator’s verifier accepts the published test vector with the published key', async () => {
    expect(await verifyMessage(VECTOR_MESSAGE, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM)).toBe(true)
    expect(await verifyGatewaySignature(VECTOR_MESSAGE, VECTOR_SIGNATURE)).toBe(true)
    expect(
      await verifyMessage(`${VECTOR_MESSAGE}.00`, VECTOR_SIGNATURE, GATEWAY_PUBLIC_KEY_PEM),
    ).toBe(false)
  })

  it('the simulator signs, the client verifies; the client signs, the simulator verifies; same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(message, async (text) => {
        const simulated = await signMessage(text, SIMULATOR_PRIVATE_KEY_PEM)
        expect(await verifyGatewaySignature(text, simulated, SIMULATOR_PUBLIC_KEY_PEM)).toBe(true)
        // RSASSA-PKCS1-v1_5 is deterministic: the same key signs the same message identically.
        expect(simulated).toBe(await signGatewayMessage(text, SIMULATOR_PRIVATE_KEY_PEM))
        const client = await signGatewayMessage(text, SIMULATOR_PRIVATE_KEY_PEM)
        expect(await verifyMessage(text, client, SIMULATOR_PUBLIC_KEY_PEM)).toBe(true)
        expect(await verifyMessage(`${text}0`, client, SIMULATOR_PUBLIC_KEY_PEM)).toBe(false)
      }),
      { numRuns: 30, examples: [[VECTOR_MESSAGE], ['طلب42success1500'], ['']] },
    )
  })

  it('the simulator’s signatures do not verify with the published key', async () => {
    const signature = await signMessage(VECTOR_MESSAGE, SIMULATOR_PRIVATE_KEY_PEM)
    expect(await verifyGatewaySignature(VECTOR_MESSAGE, signature)).toBe(false)
  })

  it('fails when one side signs the UTF-16 code units instead of UTF-8 (a bug the check must catch)', async () => {
    const key = await crypto.subtle.importKey(
      'pkcs8',
      pkcs8Der(SIMULATOR_PRIVATE_KEY_PEM),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    const buggySign = async (text: string) => {
      const units = Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff)
      const sig = new Uint8Array(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, units))
      return btoa(String.fromCharCode(...sig))
    }
    await expect(
      fc.assert(
        fc.asyncProperty(message, async (text) =>
          verifyGatewaySignature(text, await buggySign(text), SIMULATOR_PUBLIC_KEY_PEM),
        ),
        { numRuns: 30, examples: [['طلب42success1500']] },
      ),
    ).rejects.toThrow()
  })
})

function pkcs8Der(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '')
  return Uint8Array.from(atob(body), (ch) => ch.charCodeAt(0))
}
