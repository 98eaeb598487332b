/** fast-check generators of hostile input: odd text, odd numbers, near-valid values. */
import fc from 'fast-check'

/** Text a person or a script might send: empty, spaces, markup, other scripts, very long. */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u202e',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE payments; --",
    '%00',
    '../../etc/passwd',
    'null',
    'undefined',
    '[object Object]',
    '__proto__',
    'constructor',
    'أمينة بن علي',
    '🙂'.repeat(30),
  ),
  fc.integer({ min: 101, max: 5000 }).map((n) => 'x'.repeat(n)),
)

/** Numbers as text, valid and not: what an amount or a phone field receives. */
export const numericText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    '1500',
    '1500.00',
    '1 500,50',
    '1e3',
    '1e400',
    '-0',
    '-100',
    '0x10',
    'NaN',
    'Infinity',
    '١٥٠٠',
    '49.99',
    '50',
    '99999999999999999999',
    '0.001',
    '0550123456',
    '+213550123456',
    '00213 550 12 34 56',
  ),
)

/** Any JSON value, including deep and odd numbers. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e21, -0, 0.1 + 0.2, 1.005, Number.MAX_SAFE_INTEGER + 2, 50, 49.999, 1500.5),
)

/** A value for a field: usually text or a number, sometimes any JSON. */
export const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyText },
  { weight: 2, arbitrary: numericText },
  { weight: 2, arbitrary: anyJson },
)

/** Names every plain object already answers to: a lookup that forgets it was not given one. */
export const inheritedNames: fc.Arbitrary<string> = fc.constantFrom(
  'constructor',
  '__proto__',
  'toString',
  'valueOf',
  'hasOwnProperty',
)

/** An object with some of `names` (and sometimes stray keys) set to values from `value`. */
export function partialRecord(
  names: readonly string[],
  value: fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      fc.dictionary(fc.constantFrom(...names), value, { maxKeys: names.length }),
      fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), inheritedNames), value, { maxKeys: 2 }),
    )
    .map(([known, stray]) => ({ ...stray, ...known }))
}
