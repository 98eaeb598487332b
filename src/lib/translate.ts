/**
 * The one translator of Paylinks: customer pages, dashboard, merchant API and the simulator's card
 * page each hand it their message tables. A table is typed by its English original (every other
 * language is declared as `Messages<typeof en>`), so a key missing in any language fails the
 * typecheck, and a key that does not exist cannot be asked for.
 */

/** Values filled into `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>

/** A message table of the same keys as `T` (the English one), each a text. */
export type Messages<T> = { readonly [K in keyof T]: string }

/** Looks a key up and fills its placeholders: `t('payWith', { amount: '1 500,00 DA' })`. */
export type Translate<K extends string> = (key: K, params?: MessageParams) => string

const PLACEHOLDER = /\{(\w+)\}/g

/**
 * Fills `{name}` placeholders. The one fallback rule: a placeholder without a value is left as
 * written, so a missing parameter shows up in the text instead of silently reading "undefined".
 */
export function interpolate(text: string, params?: MessageParams): string {
  if (!params) return text
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  )
}

/** The translator over one message table. */
export function translator<K extends string>(messages: Readonly<Record<K, string>>): Translate<K> {
  return (key, params) => interpolate(messages[key], params)
}
