/** fast-check generators of hostile input: odd text, odd numbers, near-valid values. */
import fc from 'fast-check'

/**
 * Text that is not text once decoded: a control character (NUL, ESC, DEL, a C1 control, a line
 * break in a one-line field), a lone surrogate, U+FFFD (what invalid UTF-8 decodes to), put
 * inside an otherwise ordinary value so that trimming cannot remove it.
 */
export const notText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('Amina', 'أمينة', '1500', 'x'),
    fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u0007',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u000b',
      '\ud800',
      '\udfff',
      '\ufffd',
      '\uffff',
    ),
    // Never empty: JavaScript's trim() would take a trailing VT or FF away, as it should.
    fc.constantFrom(' Benali', 'Benali', '00'),
  )
  .map(([head, bad, tail]) => `${head}${bad}${tail}`)

/**
 * Pieces of a urlencoded body as a broken or hostile client writes them: a % that starts no
 * escape, escapes of bytes that are not UTF-8 (%FF, a truncated %E0%A4, an encoded surrogate),
 * a control character escaped.
 */
export const rawFormPiece: fc.Arbitrary<string> = fc.constantFrom(
  '%',
  '%%',
  '%Z',
  '%ZZ',
  '%2',
  '%FF',
  '%FF%FE',
  '%C3',
  '%E0%A4',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%00',
  '%1B',
  '%0D%0A',
  '+',
  '%25',
)

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
  { weight: 1, arbitrary: notText },
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
