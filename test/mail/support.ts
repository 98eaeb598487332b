/** A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed by mailparser. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface Inbox {
  url: string
  received: ParsedMail[]
  /** Refuse every message with this SMTP reply until set back to null. */
  refuse: string | null
  /** The code of that refusal (default 450: try later). */
  refuseCode: number
  /** Refuse this recipient for good (550 to RCPT TO) until set back to null. */
  rejectRecipient: string | null
  port: number
  close(): Promise<void>
}

/** How the server speaks: STARTTLS or implicit TLS with this key and certificate, its logins. */
export interface InboxOptions {
  tls?: { mode: 'starttls' | 'implicit'; key: string; cert: string }
  authMethods?: string[]
}

/**
 * Starts the server on 127.0.0.1 (on `port`, to come back up) with a login; `url` is an SMTP_URL
 * for it. Without `tls` it speaks plain SMTP only.
 */
export async function startInbox(port = 0, options: InboxOptions = {}): Promise<Inbox> {
  const inbox: Inbox = {
    url: '',
    received: [],
    refuse: null,
    refuseCode: 450,
    rejectRecipient: null,
    port: 0,
    close: async () => {},
  }
  const server = new SMTPServer({
    ...(options.tls
      ? { key: options.tls.key, cert: options.tls.cert, secure: options.tls.mode === 'implicit' }
      : { disabledCommands: ['STARTTLS'], allowInsecureAuth: true }),
    ...(options.authMethods ? { authMethods: options.authMethods } : {}),
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
        stream.on('end', () =>
          callback(
            Object.assign(new Error(inbox.refuse ?? 'refused'), { responseCode: inbox.refuseCode }),
          ),
        )
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
  const scheme = options.tls?.mode === 'implicit' ? 'smtps' : 'smtp'
  inbox.url = `${scheme}://paylinks:${encodeURIComponent('p@ss word')}@127.0.0.1:${inbox.port}`
  inbox.close = () => new Promise((resolve) => server.close(() => resolve()))
  return inbox
}

/** A self-signed certificate for `localhost` and 127.0.0.1, made by openssl for this run. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'paylinks-smtp-tls-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    )
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
