/**
 * A small SMTP client (RFC 5321) over any TCP socket the runtime offers: the Worker's
 * `cloudflare:sockets` (src/runtime/worker/mail-transport.ts), or Node's in tests. One connection per message:
 * EHLO, STARTTLS when offered (required before a login unless the server is on loopback), AUTH
 * PLAIN or LOGIN, MAIL FROM, RCPT TO, DATA (dot-stuffed), QUIT. Every read has a time limit.
 * Failures are MailSendError with nodemailer's codes, so the outbox retries or gives up alike.
 * Kept rather than `worker-mailer`: docs/decisions/libraries.md, "SMTP on Workers".
 */
import type { MailConfig } from '../config.js'
import { base64Text, buildMime, parseMailbox } from './mime.js'
import { type MailMessage, MailSendError, type MailTransport } from './types.js'

/** A connected TCP socket, as the SMTP client uses it. */
export interface SmtpSocket {
  /** The next bytes received; null once the server closed the connection. */
  read(): Promise<Uint8Array | null>
  write(bytes: Uint8Array): Promise<void>
  /** Starts TLS on this connection (after the server's 220 to STARTTLS); later reads and writes go through it. */
  startTls(): Promise<void>
  close(): void
}

/** Opens a connection: `tls` for implicit TLS (smtps, 465); otherwise plain, ready for STARTTLS. */
export type SmtpConnect = (target: {
  host: string
  port: number
  tls: boolean
}) => Promise<SmtpSocket>

export interface SmtpOptions {
  /** The longest wait for a connection or a reply (default 30 s). */
  timeoutMs?: number
  clock?: () => number
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i
const utf8 = new TextEncoder()

/** A transport sending from `config.from` through `config.smtpUrl` over `connect`'s sockets. */
export function smtpTransport(
  config: MailConfig,
  connect: SmtpConnect,
  options: SmtpOptions = {},
): MailTransport {
  const url = new URL(config.smtpUrl)
  const tls = url.protocol === 'smtps:'
  const host = url.hostname
  const target = { host, port: Number(url.port) || (tls ? 465 : 587), tls }
  const user = decodeURIComponent(url.username)
  const pass = decodeURIComponent(url.password)
  const from = parseMailbox(config.from).address
  const helo = from.split('@')[1] ?? 'localhost'
  const timeoutMs = options.timeoutMs ?? 30_000
  return {
    async send(message: MailMessage) {
      if (/[\s<>]/.test(message.to) || !message.to.includes('@')) {
        throw new MailSendError('EENVELOPE: the recipient is not an address', null, true)
      }
      const mime = buildMime(message, config.from, {
        date: (options.clock ?? Date.now)(),
        id: crypto.randomUUID(),
      })
      let socket: SmtpSocket | undefined
      let buffer = ''
      const decoder = new TextDecoder()
      const close = () => {
        try {
          socket?.close()
        } catch {
          // Closed already.
        }
      }
      /** `promise`, or ETIMEDOUT (the socket closed) once the time limit passes. */
      const timed = <T>(promise: Promise<T>): Promise<T> => {
        let timer: ReturnType<typeof setTimeout> | undefined
        const limit = new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            close()
            reject(fail('ETIMEDOUT', `no answer within ${timeoutMs} ms`))
          }, timeoutMs)
        })
        return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
      }
      const line = async (): Promise<string> => {
        for (;;) {
          const end = buffer.indexOf('\n')
          if (end >= 0) {
            const found = buffer.slice(0, end).replace(/\r$/, '')
            buffer = buffer.slice(end + 1)
            return found
          }
          if (buffer.length > 65_536) throw fail('EPROTOCOL', 'reply line too long')
          const chunk = await timed(socket!.read())
          if (chunk === null) throw fail('ECONNECTION', 'the server closed the connection')
          buffer += decoder.decode(chunk, { stream: true })
        }
      }
      /** Sends `command` (null: only reads) and reads the reply; a code not in `ok` throws. */
      const expect = async (command: string | null, ok: number[], code: string) => {
        if (command !== null) await timed(socket!.write(utf8.encode(`${command}\r\n`)))
        // A reply's lines: `250-…` continues, `250 …` ends it.
        const lines: string[] = []
        let match: RegExpExecArray | null
        do {
          match = /^(\d{3})([ -]?)(.*)$/.exec(await line())
          if (!match) throw fail('EPROTOCOL', 'not an SMTP reply')
          lines.push(match[3]!)
        } while (match[2] === '-')
        const reply = Number(match[1])
        if (ok.includes(reply)) return lines
        // A 5xx to the envelope or the message is final; a 4xx, or a refusal elsewhere, may pass.
        const permanent = reply >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE')
        throw new MailSendError(`${code}: ${reply} ${lines.join(' ')}`, reply, permanent)
      }
      try {
        socket = await timed(connect(target)).catch((error: unknown) => {
          throw error instanceof MailSendError ? error : fail('ECONNECTION', error)
        })
        await expect(null, [220], 'EPROTOCOL')
        let features = await expect(`EHLO ${helo}`, [250], 'EPROTOCOL')
        // An extension of the EHLO reply (`STARTTLS`), or a login method of its AUTH line.
        const offered = (name: string, line = name) =>
          features.some((f) => {
            const words = f.toUpperCase().split(/[ =]/)
            return words[0] === line && words.includes(name)
          })
        if (!tls && offered('STARTTLS')) {
          await expect('STARTTLS', [220], 'ETLS')
          buffer = ''
          await timed(socket.startTls())
          features = await expect(`EHLO ${helo}`, [250], 'EPROTOCOL')
        } else if (!tls && user && !LOOPBACK.test(host)) {
          throw fail('ETLS', 'the server offers no STARTTLS; the password is not sent unencrypted')
        }
        if (user) {
          // AUTH PLAIN, or LOGIN when only that is offered.
          if (offered('PLAIN', 'AUTH')) {
            await expect(`AUTH PLAIN ${base64Text(`\0${user}\0${pass}`)}`, [235], 'EAUTH')
          } else if (offered('LOGIN', 'AUTH')) {
            await expect('AUTH LOGIN', [334], 'EAUTH')
            await expect(base64Text(user), [334], 'EAUTH')
            await expect(base64Text(pass), [235], 'EAUTH')
          } else throw fail('EAUTH', 'the server offers neither AUTH PLAIN nor LOGIN')
        }
        await expect(`MAIL FROM:<${from}>`, [250], 'EENVELOPE')
        await expect(`RCPT TO:<${message.to}>`, [250, 251], 'EENVELOPE')
        await expect('DATA', [354], 'EMESSAGE')
        await expect(`${mime.replace(/^\./gm, '..')}\r\n.`, [250], 'EMESSAGE')
        // QUIT without waiting for its answer: the message is accepted already.
        await socket.write(utf8.encode('QUIT\r\n')).catch(() => {})
      } catch (error) {
        if (!(error instanceof MailSendError)) throw fail('ESOCKET', error)
        // A server may quote the recipient: no address in what is kept and logged.
        const text = scrub(error.message)
        throw text === error.message
          ? error
          : new MailSendError(text, error.smtpCode, error.permanent)
      } finally {
        close()
      }
    },
  }
}

/** A failure to try again later, its text without addresses. */
function fail(code: string, reason: unknown): MailSendError {
  const text = reason instanceof Error ? reason.message : String(reason)
  return new MailSendError(scrub(`${code}: ${text}`), null, false)
}

/** The text without addresses, cut short. */
function scrub(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]').slice(0, 200)
}
