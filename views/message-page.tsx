import { Layout, type PageContext } from './layout.js'
import { MessageCard, type MessageProps } from './message-card.js'

/** A short page with a title, a text and an optional action: link states, errors, not found. */
export function MessagePage(props: MessageProps & { ctx: PageContext }) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <MessageCard class="card message" {...props} />
    </Layout>
  )
}
