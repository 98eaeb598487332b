/** A structured log sink: one JSON object a line. Never pass secrets or card data to it. */
export type Logger = (entry: Record<string, unknown>) => void

/** Logs JSON lines to the console (stdout on Node, the Workers log stream on Workers). */
export const consoleLogger: Logger = (entry) => {
  console.log(JSON.stringify(entry))
}

/** Drops every entry (tests, benchmarks). */
export const silentLogger: Logger = () => {}
