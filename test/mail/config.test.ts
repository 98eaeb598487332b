import { describe, expect, it } from 'vitest'
import { type ConfigError, parseConfig } from '../../src/config.js'

const problems = (env: Record<string, string>) => {
  try {
    parseConfig(env)
    return []
  } catch (error) {
    return (error as ConfigError).problems
  }
}

describe('e-mail settings', () => {
  it('leave e-mail off without SMTP_URL', () => {
    expect(parseConfig({}).mail).toBeUndefined()
  })

  it('read SMTP_URL, MAIL_FROM, MERCHANT_EMAIL and notices per payment by default', () => {
    const config = parseConfig({
      SMTP_URL: 'smtps://user:secret@mail.example.dz:465',
      MAIL_FROM: 'Shop <receipts@shop.dz>',
      MERCHANT_EMAIL: 'owner@shop.dz',
    })
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:secret@mail.example.dz:465',
      from: 'Shop <receipts@shop.dz>',
      merchantEmail: 'owner@shop.dz',
      merchantNotify: 'each',
    })
  })

  it('name a bad SMTP_URL without repeating its password', () => {
    const found = problems({ SMTP_URL: 'http://user:hunter22@mail.example.dz' })
    expect(found.join('\n')).toMatch(/^SMTP_URL: /)
    expect(found.join('\n')).not.toContain('hunter22')
  })

  it('ask for MERCHANT_EMAIL when notices are on, and refuse unknown notice modes', () => {
    expect(problems({ MERCHANT_NOTIFY: 'daily' })).toEqual([
      'MERCHANT_EMAIL: required when MERCHANT_NOTIFY is daily — where the notices go',
    ])
    expect(problems({ MERCHANT_NOTIFY: 'hourly' }).join()).toMatch(/^MERCHANT_NOTIFY: /)
    expect(problems({ MERCHANT_EMAIL: 'not an address' }).join()).toMatch(/^MERCHANT_EMAIL: /)
  })

  it('refuse port 25 on Workers (Cloudflare blocks it) and take 587 and 465 there', () => {
    const onWorkers = (smtpUrl: string) => {
      try {
        parseConfig(
          { PUBLIC_URL: 'http://127.0.0.1:8787', SMTP_URL: smtpUrl },
          { runtime: 'workers' },
        )
        return []
      } catch (error) {
        return (error as ConfigError).problems
      }
    }
    expect(onWorkers('smtp://user:hunter22@mail.example.dz:25')).toEqual([
      'SMTP_URL: Cloudflare Workers cannot connect to port 25 — use 587 (smtp://, STARTTLS) or 465 (smtps://)',
    ])
    expect(onWorkers('smtp://user:hunter22@mail.example.dz:587')).toEqual([])
    expect(onWorkers('smtps://user:hunter22@mail.example.dz')).toEqual([])
    expect(problems({ SMTP_URL: 'smtp://mail.example.dz:25' })).toEqual([])
  })
})
