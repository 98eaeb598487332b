import type { Child } from 'hono/jsx'
import { StatusIcon, type StatusKind } from './icons.js'
import { Layout, type PageContext } from './layout.js'

/** A short page with a title, a text and an optional action: link states, errors, not found. */
export function MessagePage(props: {
  ctx: PageContext
  title: string
  text: string
  icon?: StatusKind
  action?: { href: string; label: string } | undefined
  children?: Child
}) {
  return (
    <Layout ctx={props.ctx} title={props.title}>
      <section class="card message" aria-labelledby="msg-title">
        {props.icon ? <StatusIcon kind={props.icon} /> : null}
        <h1 id="msg-title">{props.title}</h1>
        <p>{props.text}</p>
        {props.children}
        {props.action ? (
          <div class="actions">
            <a class="btn" href={props.action.href}>
              {props.action.label}
            </a>
          </div>
        ) : null}
      </section>
    </Layout>
  )
}
