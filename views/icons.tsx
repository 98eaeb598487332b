/** The status icons of the customer pages, drawn inline: emoji differ from phone to phone. */
export type StatusKind = 'ok' | 'fail' | 'wait' | 'info' | 'alert'

const COLOURS: Record<StatusKind, string> = {
  ok: '#1a7f37',
  fail: '#b42318',
  wait: '#9a6700',
  info: '#0b5cad',
  alert: '#b42318',
}

const MARKS: Record<StatusKind, string> = {
  ok: 'M7 12.5l3.3 3.3L17.2 9',
  fail: 'M8.5 8.5l7 7M15.5 8.5l-7 7',
  wait: 'M12 7v5.2l3.4 2',
  info: 'M12 11v6M12 7.4v.2',
  alert: 'M12 6.8v6.4M12 16.6v.2',
}

/** A coloured disc with a check, a cross, a clock, an "i" or an "!"; decorative (the title says it). */
export function StatusIcon(props: { kind: StatusKind }) {
  return (
    <svg class="status" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="11" fill={COLOURS[props.kind]} />
      <path
        d={MARKS[props.kind]}
        fill="none"
        stroke="#fff"
        stroke-width="2.2"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  )
}
