/** How the `paylinks` command answers: tables for people, JSON for scripts, exit codes for both. */

/** A failure the command explains in one message; `exitCode` 1 (failed) or 2 (wrong usage). */
export class CliError extends Error {
  override name = 'CliError'
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message)
  }
}

/** Options every command reads. */
export interface OutputOptions {
  json?: boolean
}

/** Prints `value` as indented JSON (one document on stdout). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

/** A column of a table: its heading and how a row shows in it. */
export type Column<T> = [heading: string, cell: (row: T) => unknown]

const shown = (value: unknown): string =>
  value === null || value === undefined ? '—' : String(value).replace(/\s+/g, ' ')

/** Prints rows as a table with aligned columns (a note when there is none). */
export function printTable<T>(rows: readonly T[], columns: readonly Column<T>[]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n')
    return
  }
  const cells = rows.map((row) => columns.map(([, cell]) => shown(cell(row))))
  const widths = columns.map(([heading], i) =>
    Math.max(heading.length, ...cells.map((r) => r[i]!.length)),
  )
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  const out = [line(columns.map(([h]) => h.toUpperCase())), ...cells.map(line)]
  process.stdout.write(`${out.join('\n')}\n`)
}

/** Prints one object as `key  value` lines (nested objects as JSON). */
export function printRecord(record: Record<string, unknown>): void {
  const width = Math.max(...Object.keys(record).map((k) => k.length))
  const lines = Object.entries(record).map(([key, value]) => {
    const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : shown(value)
    return `${key.padEnd(width)}  ${text}`
  })
  process.stdout.write(`${lines.join('\n')}\n`)
}

/** Prints as JSON with --json, else as the given human form. */
export function answer(options: OutputOptions, value: unknown, human: () => void): void {
  if (options.json) printJson(value)
  else human()
}
