/**
 * The SMTP client's socket on Node (net and tls), to run src/mail/smtp.ts against a real SMTP
 * server from Node: `ca` is the certificate to trust (the test server's own, self-signed);
 * `resolve` may send a hostname to another address (a non-loopback name served on loopback).
 */
import { isIP, type Socket, connect as tcp } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { SmtpConnect, SmtpSocket } from '../../src/mail/smtp.js'

export function nodeSmtpConnect(
  options: { ca?: string; resolve?: (host: string) => string } = {},
): SmtpConnect {
  return ({ host, port, tls }) =>
    new Promise((resolve, reject) => {
      const address = options.resolve?.(host) ?? host
      const tlsOptions = {
        ...(isIP(host) ? {} : { servername: host }),
        ...(options.ca ? { ca: options.ca } : {}),
      }
      const socket: Socket = tls
        ? tlsConnect({ host: address, port, ...tlsOptions }, () => resolve(adapt(socket)))
        : tcp({ host: address, port }, () => resolve(adapt(socket)))
      socket.once('error', reject)
      const adapt = (first: Socket): SmtpSocket => {
        let current = first
        const chunks: Uint8Array[] = []
        let waiting: ((chunk: Uint8Array | null) => void) | undefined
        let ended = false
        const listen = (s: Socket) => {
          s.on('data', (chunk: Buffer) => {
            if (waiting) {
              const w = waiting
              waiting = undefined
              w(chunk)
            } else chunks.push(chunk)
          })
          const end = () => {
            ended = true
            waiting?.(null)
            waiting = undefined
          }
          s.on('end', end)
          s.on('close', end)
          s.on('error', end)
        }
        listen(current)
        return {
          read: () => {
            const next = chunks.shift()
            if (next) return Promise.resolve(next)
            if (ended) return Promise.resolve(null)
            return new Promise((r) => {
              waiting = r
            })
          },
          write: (bytes) =>
            new Promise((r, j) => current.write(bytes, (error) => (error ? j(error) : r()))),
          startTls: () =>
            new Promise((r, j) => {
              current.removeAllListeners('data')
              const secure = tlsConnect({ socket: current, ...tlsOptions }, () => r())
              secure.once('error', j)
              current = secure
              listen(secure)
            }),
          close: () => current.destroy(),
        }
      }
    })
}
