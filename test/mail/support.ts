/** A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed by mailparser. */
import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Inbox {
  url: string
  received: ParsedMail[]
  /** Refuse every message with this SMTP reply until set back to null. */
  refuse: string | null
  /** Refuse this recipient for good (550 to RCPT TO) until set back to null. */
  rejectRecipient: string | null
  port: number
  close(): Promise<void>
}

/** Starts the server on 127.0.0.1 (on `port`, to come back up) with a login; `url` is an SMTP_URL for it. */
export async function startInbox(port = 0): Promise<Inbox> {
  const inbox: Inbox = {
    url: '',
    received: [],
    refuse: null,
    rejectRecipient: null,
    port: 0,
    close: async () => {},
  }
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'paylinks' && auth.password === 'p@ss word')
        return callback(null, { user: 'paylinks' })
      return callback(new Error('Invalid username or password'))
    },
    onRcptTo(address, _session, callback) {
      if (address.address !== inbox.rejectRecipient) return callback()
      return callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }))
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  inbox.port = (server.server.address() as AddressInfo).port
  inbox.url = `smtp://paylinks:${encodeURIComponent('p@ss word')}@127.0.0.1:${inbox.port}`
  inbox.close = () => new Promise((resolve) => server.close(() => resolve()))
  return inbox
}
