/**
 * The Worker's SMTP client (src/mail/smtp.ts) from Node, through a Node socket with the same
 * adapter shape as the Worker's, against a real SMTP server on loopback: plain SMTP with a login,
 * STARTTLS and implicit TLS with a self-signed certificate, AUTH LOGIN, refusals, a dead server
 * and one that never answers.
 */

import type { AddressInfo } from 'node:net'
import { createServer, type Server } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { MailConfig } from '../../src/config.js'
import { smtpTransport } from '../../src/mail/smtp.js'
import { type MailMessage, MailSendError } from '../../src/mail/types.js'
import { nodeSmtpConnect } from './node-smtp-socket.js'
import { type Inbox, type InboxOptions, selfSignedCertificate, startInbox } from './support.js'

let inbox: Inbox | undefined
let silent: Server | undefined
let certificate: { key: string; cert: string }

beforeAll(() => {
  certificate = selfSignedCertificate()
})

afterEach(async () => {
  await inbox?.close()
  inbox = undefined
  await new Promise((resolve) => (silent ? silent.close(resolve) : resolve(undefined)))
  silent = undefined
})

const message: MailMessage = {
  to: 'amina@example.dz',
  subject: 'وصل الدفع: 1 500,00 دج',
  text: 'Bonjour\n.Une ligne qui commence par un point\n..et deux\n.\nFin\n',
  html: '<p dir="rtl">مرحبًا</p>',
  attachments: [
    {
      filename: 'receipt.html',
      contentType: 'text/html',
      content: new TextEncoder().encode('<p>R</p>'),
    },
  ],
}

function config(smtpUrl: string): MailConfig {
  return {
    smtpUrl,
    from: 'Boutique <receipts@boutique.test>',
    merchantEmail: undefined,
    merchantNotify: 'off',
  }
}

async function start(options: InboxOptions = {}) {
  inbox = await startInbox(0, options)
  return inbox
}

async function failure(promise: Promise<unknown>): Promise<MailSendError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(MailSendError)
  return error as MailSendError
}

describe('the SMTP client', () => {
  it('logs in over plain SMTP on loopback and delivers the message, dots and all', async () => {
    const { url, received } = await start()
    await smtpTransport(config(url), nodeSmtpConnect()).send(message)
    expect(received).toHaveLength(1)
    const mail = received[0]!
    expect(mail.subject).toBe(message.subject)
    expect(mail.text).toBe(message.text)
    expect(mail.html).toBe(message.html)
    expect(mail.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ['receipt.html', '<p>R</p>'],
    ])
    expect(mail.from?.text).toBe('"Boutique" <receipts@boutique.test>')
  })

  it('upgrades to TLS with STARTTLS before the login, and trusts only the certificate given', async () => {
    const { url, received } = await start({ tls: { mode: 'starttls', ...certificate } })
    const host = url.replace('127.0.0.1', 'localhost')
    await smtpTransport(config(host), nodeSmtpConnect({ ca: certificate.cert })).send(message)
    expect(received).toHaveLength(1)
    // Without the certificate trusted, the TLS start fails and is retried later, nothing sent.
    const error = await failure(smtpTransport(config(host), nodeSmtpConnect()).send(message))
    expect(error.permanent).toBe(false)
    expect(received).toHaveLength(1)
  })

  it('speaks implicit TLS for smtps:// (465)', async () => {
    const { url, received } = await start({ tls: { mode: 'implicit', ...certificate } })
    expect(url).toMatch(/^smtps:/)
    await smtpTransport(config(url), nodeSmtpConnect({ ca: certificate.cert })).send(message)
    expect(received).toHaveLength(1)
  })

  it('uses AUTH LOGIN when the server offers only that', async () => {
    const { url, received } = await start({ authMethods: ['LOGIN'] })
    await smtpTransport(config(url), nodeSmtpConnect()).send(message)
    expect(received).toHaveLength(1)
  })

  it('refuses to send a password unencrypted to a server off loopback that offers no STARTTLS', async () => {
    const { url, received } = await start()
    const remote = url.replace('127.0.0.1', 'mail.boutique.test')
    const connect = nodeSmtpConnect({ resolve: () => '127.0.0.1' })
    const error = await failure(smtpTransport(config(remote), connect).send(message))
    expect(error.message).toMatch(/^ETLS/)
    expect(error.permanent).toBe(false)
    expect(received).toHaveLength(0)
  })

  it('answers a wrong password with EAUTH, to be tried again once fixed', async () => {
    const { url } = await start()
    const wrong = url.replace(encodeURIComponent('p@ss word'), 'nope')
    const error = await failure(smtpTransport(config(wrong), nodeSmtpConnect()).send(message))
    expect([error.message.slice(0, 5), error.smtpCode, error.permanent]).toEqual([
      'EAUTH',
      535,
      false,
    ])
  })

  it('gives up on a 5xx to the recipient or the message, and retries a 4xx, naming no address', async () => {
    const box = await start()
    const transport = smtpTransport(config(box.url), nodeSmtpConnect())
    box.rejectRecipient = message.to
    const refused = await failure(transport.send(message))
    expect([refused.smtpCode, refused.permanent]).toEqual([550, true])
    expect(refused.message).toMatch(/^EENVELOPE/)
    expect(refused.message).not.toContain(message.to)
    box.rejectRecipient = null
    box.refuse = 'Mailbox busy, try later'
    const busy = await failure(transport.send(message))
    expect([busy.message.slice(0, 8), busy.smtpCode, busy.permanent]).toEqual([
      'EMESSAGE',
      450,
      false,
    ])
    box.refuseCode = 554
    const spam = await failure(transport.send(message))
    expect([spam.smtpCode, spam.permanent]).toEqual([554, true])
    expect(box.received).toHaveLength(0)
  })

  it('fails to be retried when the server is down or never answers', async () => {
    const box = await start()
    const url = box.url
    await box.close()
    inbox = undefined
    const down = await failure(smtpTransport(config(url), nodeSmtpConnect()).send(message))
    expect([down.message.slice(0, 11), down.permanent]).toEqual(['ECONNECTION', false])
    // A server that takes the connection and says nothing.
    silent = createServer(() => {})
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    const started = Date.now()
    const mute = await failure(
      smtpTransport(config(`smtp://127.0.0.1:${port}`), nodeSmtpConnect(), { timeoutMs: 300 }).send(
        message,
      ),
    )
    expect([mute.message.slice(0, 9), mute.permanent]).toEqual(['ETIMEDOUT', false])
    expect(Date.now() - started).toBeLessThan(5000)
  })
})
