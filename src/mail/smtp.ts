/**
 * A small SMTP client (RFC 5321) over any TCP socket the runtime offers: the Worker's
 * `cloudflare:sockets` (src/worker-smtp-socket.ts), or Node's in tests. One connection per message:
 * EHLO, STARTTLS when offered (required before a login unless the server is on loopback), AUTH
 * PLAIN or LOGIN, MAIL FROM, RCPT TO, DATA (dot-stuffed), QUIT. Every read has a time limit.
 * Failures are MailSendError with nodemailer's codes, so the outbox retries or gives up alike.
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

interface Reply {
  code: number
  lines: string[]
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
  const implicitTls = url.protocol === 'smtps:'
  const server = {
    host: url.hostname,
    port: Number(url.port) || (implicitTls ? 465 : 587),
    tls: implicitTls,
  }
  const login = url.username
    ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    : null
  const from = parseMailbox(config.from).address
  return {
    async send(message: MailMessage) {
      if (/[\s<>]/.test(message.to) || !message.to.includes('@')) {
        throw new MailSendError('EENVELOPE: the recipient is not an address', null, true)
      }
      const mime = buildMime(message, config.from, {
        date: (options.clock ?? Date.now)(),
        id: crypto.randomUUID(),
      })
      const session = new Session(options.timeoutMs ?? 30_000)
      try {
        await session.open(connect, server)
        await session.expect(null, [220], 'EPROTOCOL')
        const helo = from.split('@')[1] ?? 'localhost'
        let features = await session.expect(`EHLO ${helo}`, [250], 'EPROTOCOL')
        if (!server.tls && has(features, 'STARTTLS')) {
          await session.expect('STARTTLS', [220], 'ETLS')
          await session.upgrade()
          features = await session.expect(`EHLO ${helo}`, [250], 'EPROTOCOL')
        } else if (!server.tls && login && !LOOPBACK.test(server.host)) {
          throw new MailSendError(
            'ETLS: the server offers no STARTTLS; the password is not sent unencrypted',
            null,
            false,
          )
        }
        if (login) await session.authenticate(features, login)
        await session.expect(`MAIL FROM:<${from}>`, [250], 'EENVELOPE')
        await session.expect(`RCPT TO:<${message.to}>`, [250, 251], 'EENVELOPE')
        await session.expect('DATA', [354], 'EMESSAGE')
        const body = mime.replace(/^\./gm, '..')
        await session.expect(`${body}\r\n.`, [250], 'EMESSAGE')
        await session.quit()
      } catch (error) {
        throw asSendError(error)
      } finally {
        session.close()
      }
    },
  }
}

/** Whether the EHLO reply lists an extension (its first word). */
function has(features: Reply, name: string): boolean {
  return features.lines.some((line) => line.split(' ')[0]?.toUpperCase() === name)
}

class Session {
  private socket: SmtpSocket | undefined
  private buffer = ''
  private readonly decoder = new TextDecoder()

  constructor(private readonly timeoutMs: number) {}

  async open(connect: SmtpConnect, target: Parameters<SmtpConnect>[0]): Promise<void> {
    try {
      this.socket = await this.timed(connect(target), 'connecting')
    } catch (error) {
      if (error instanceof MailSendError) throw error
      throw new MailSendError(`ECONNECTION: ${describe(error)}`, null, false)
    }
  }

  /** Sends `command` (none: only read) and reads the reply; another code than `ok` throws. */
  async expect(command: string | null, ok: number[], code: string): Promise<Reply> {
    if (command !== null) await this.write(command)
    const reply = await this.reply()
    if (ok.includes(reply.code)) return reply
    // A 5xx to the envelope or the message is final; a 4xx, or a refusal elsewhere, may pass.
    const permanent = reply.code >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE')
    throw new MailSendError(
      `${code}: ${reply.code} ${reply.lines.join(' ')}`,
      reply.code,
      permanent,
    )
  }

  async upgrade(): Promise<void> {
    this.buffer = ''
    await this.timed(this.socket!.startTls(), 'starting TLS')
  }

  /** AUTH PLAIN, or LOGIN when only that is offered. */
  async authenticate(features: Reply, login: { user: string; pass: string }): Promise<void> {
    const auth = features.lines.find((line) => /^AUTH[ =]/i.test(line))
    const methods = auth?.toUpperCase().split(/[ =]/).slice(1) ?? []
    if (methods.includes('PLAIN')) {
      await this.expect(
        `AUTH PLAIN ${base64Text(`\0${login.user}\0${login.pass}`)}`,
        [235],
        'EAUTH',
      )
    } else if (methods.includes('LOGIN')) {
      await this.expect('AUTH LOGIN', [334], 'EAUTH')
      await this.expect(base64Text(login.user), [334], 'EAUTH')
      await this.expect(base64Text(login.pass), [235], 'EAUTH')
    } else {
      throw new MailSendError('EAUTH: the server offers neither AUTH PLAIN nor LOGIN', null, false)
    }
  }

  /** QUIT, without waiting long: the message is accepted already. */
  async quit(): Promise<void> {
    await this.write('QUIT').catch(() => {})
  }

  close(): void {
    try {
      this.socket?.close()
    } catch {
      // Closed already.
    }
  }

  private write(line: string): Promise<void> {
    return this.timed(this.socket!.write(utf8.encode(`${line}\r\n`)), 'sending')
  }

  /** One reply, its lines joined (`250-…` continues, `250 …` ends it). */
  private async reply(): Promise<Reply> {
    const lines: string[] = []
    for (;;) {
      const line = await this.line()
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line)
      if (!match) throw new MailSendError('EPROTOCOL: not an SMTP reply', null, false)
      lines.push(match[3]!)
      if (match[2] !== '-') return { code: Number(match[1]), lines }
    }
  }

  private async line(): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf('\n')
      if (end >= 0) {
        const line = this.buffer.slice(0, end).replace(/\r$/, '')
        this.buffer = this.buffer.slice(end + 1)
        return line
      }
      if (this.buffer.length > 65_536) {
        throw new MailSendError('EPROTOCOL: reply line too long', null, false)
      }
      const chunk = await this.timed(this.socket!.read(), 'waiting for a reply')
      if (chunk === null) {
        throw new MailSendError('ECONNECTION: the server closed the connection', null, false)
      }
      this.buffer += this.decoder.decode(chunk, { stream: true })
    }
  }

  /** `promise`, or ETIMEDOUT (the socket closed) once the time limit passes. */
  private timed<T>(promise: Promise<T>, doing: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.close()
        reject(
          new MailSendError(
            `ETIMEDOUT: no answer ${doing} within ${this.timeoutMs} ms`,
            null,
            false,
          ),
        )
      }, this.timeoutMs)
    })
    return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
  }
}

function asSendError(error: unknown): MailSendError {
  if (error instanceof MailSendError) {
    const text = scrub(error.message)
    return text === error.message ? error : new MailSendError(text, error.smtpCode, error.permanent)
  }
  return new MailSendError(`ESOCKET: ${describe(error)}`, null, false)
}

function describe(error: unknown): string {
  return scrub(error instanceof Error ? error.message : String(error))
}

/** The text without addresses (a server may quote the recipient), cut short. */
function scrub(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]').slice(0, 200)
}
