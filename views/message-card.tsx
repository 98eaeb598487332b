import type { Child } from 'hono/jsx'
import { StatusIcon, type StatusKind } from './icons.js'

/** What a short page says: a title, a text, an optional icon, extra lines and a way on. */
export interface MessageProps {
  title: string
  text: string
  icon?: StatusKind | undefined
  action?: { href: string; label: string } | undefined
  /** `auto` when the text is what a merchant typed (any script, any direction). */
  textDir?: 'auto' | undefined
  children?: Child
}

/** The card of a short page, in the customer pages' layout and the dashboard's alike. */
export function MessageCard(props: MessageProps & { class: string }) {
  return (
    <section class={props.class} aria-labelledby="msg-title">
      {props.icon ? <StatusIcon kind={props.icon} /> : null}
      <h1 id="msg-title">{props.title}</h1>
      <p dir={props.textDir}>{props.text}</p>
      {props.children}
      {props.action ? (
        <div class="actions">
          <a class="btn" href={props.action.href}>
            {props.action.label}
          </a>
        </div>
      ) : null}
    </section>
  )
}
