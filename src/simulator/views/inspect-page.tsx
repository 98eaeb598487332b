/** The inspector page: transactions, webhook deliveries (with the receiver's answers), operations, invoices, faults. */
import type { InspectSnapshot } from '../inspect.js'
import { Layout } from './layout.js'

type Row = Record<string, unknown>
const show = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value)

function Table({ caption, rows, columns }: { caption: string; rows: Row[]; columns: string[] }) {
  if (rows.length === 0) return <p>{caption}: none yet.</p>
  return (
    // Scrolls sideways on a phone: reachable by keyboard, named by its caption.
    <section class="scroll" tabindex={0} aria-label={caption}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((name) => (
              <th scope="col">{name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              {columns.map((name) => (
                <td>
                  <code>{show(row[name])}</code>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}

export interface InspectPageProps {
  base: string
  snapshot: InspectSnapshot
  faults: unknown
}

/** The local webhook inspector and state viewer. */
export function InspectPage({ base, snapshot, faults }: InspectPageProps) {
  const attempts = snapshot.webhooks.map((d) => {
    const list = (d.attempts as Row[]) ?? []
    const last = list[list.length - 1]
    return {
      ...d,
      attempts: list.length,
      last_status: last ? (last.status ?? last.error) : null,
      last_body: last?.body ?? null,
    }
  })
  const json = (name: string) => <a href={`${base}/_inspect/${name}.json`}>{`${name}.json`}</a>
  return (
    <Layout
      lang="en"
      title="Gateway simulator — inspector"
      banner="SIMULATOR — no real money"
      base={base}
      wide
    >
      <h1>Gateway simulator — inspector</h1>
      <nav aria-label="JSON">
        <ul>
          <li>{json('transactions')}</li>
          <li>{json('webhooks')}</li>
          <li>{json('operations')}</li>
          <li>{json('invoices')}</li>
          <li>
            <a href={`${base}/_faults`}>faults</a>
          </li>
          <li>
            <a href={`${base}/_inspect`}>refresh</a>
          </li>
        </ul>
      </nav>
      <h2>Card transactions</h2>
      <Table
        caption="Card transactions"
        rows={snapshot.transactions}
        columns={[
          'cib_transaction_id',
          'amount',
          'via',
          'sandbox',
          'step',
          'outcome',
          'webhook_url',
          'return_redirect',
          'created_at',
        ]}
      />
      <h2>Webhook deliveries</h2>
      <Table
        caption="Webhook deliveries"
        rows={attempts}
        columns={[
          'cib_transaction_id',
          'url',
          'state',
          'note',
          'attempts',
          'last_status',
          'last_body',
          'next_attempt_at',
        ]}
      />
      <h2>Operations</h2>
      <Table
        caption="Operations"
        rows={snapshot.operations}
        columns={[
          'id',
          'merchant',
          'via',
          'operation_type',
          'operator',
          'offer',
          'amount',
          'status',
          'created_at',
        ]}
      />
      <h2>Invoices</h2>
      <Table
        caption="Invoices"
        rows={snapshot.invoices}
        columns={['id', 'merchant', 'amount', 'subtotal', 'status', 'total_items', 'updated_at']}
      />
      <h2>Faults</h2>
      <pre>
        <code>{JSON.stringify(faults, null, 2)}</code>
      </pre>
    </Layout>
  )
}
