/** A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed by mailparser. */
import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Inbox {
  url: string
  received: ParsedMail[]
  /** Refuse every message with this SMTP reply until set back to null. */
  refuse: string | null
  close(): Promise<void>
}

/** Starts the server on 127.0.0.1 with a login; `url` is an SMTP_URL for it. */
export async function startInbox(): Promise<Inbox> {
  const inbox: Inbox = { url: '', received: [], refuse: null, close: async () => {} }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'paylinks' && auth.password === 'p@ss word')
        return callback(null, { user: 'paylinks' })
      return callback(new Error('Invalid username or password'))
    },
    onData(stream, _session, callback) {
      if (inbox.refuse) {
        stream.resume()
        stream.on('end', () => callback(new Error(inbox.refuse ?? 'refused')))
        return
      }
      simpleParser(stream).then(
        (mail) => {
          inbox.received.push(mail)
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  inbox.url = `smtp://paylinks:${encodeURIComponent('p@ss word')}@127.0.0.1:${port}`
  inbox.close = () => new Promise((resolve) => server.close(() => resolve()))
  return inbox
}
