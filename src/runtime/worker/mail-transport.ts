/**
 * The SMTP client's socket on Workers: a TCP connection from `cloudflare:sockets`, with implicit
 * TLS (smtps, 465) or ready for STARTTLS (587). Cloudflare blocks outbound port 25.
 */
import { connect, type Socket } from 'cloudflare:sockets'
import type { SmtpConnect } from '../../mail/smtp.js'

export const connectSmtp: SmtpConnect = async ({ host, port, tls }) => {
  let socket: Socket = connect(
    { hostname: host, port },
    { secureTransport: tls ? 'on' : 'starttls', allowHalfOpen: false },
  )
  await socket.opened
  let reader = socket.readable.getReader()
  let writer = socket.writable.getWriter()
  return {
    async read() {
      const { done, value } = await reader.read()
      return done ? null : value
    },
    write: (bytes) => writer.write(bytes),
    async startTls() {
      reader.releaseLock()
      writer.releaseLock()
      socket = socket.startTls()
      reader = socket.readable.getReader()
      writer = socket.writable.getWriter()
      await socket.opened
    },
    close() {
      socket.close().catch(() => {})
    },
  }
}
