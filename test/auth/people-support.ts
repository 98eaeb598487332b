/**
 * Set-up for the people tests: signing in with a password, accepting an invitation, and TOTP
 * codes computed here with node:crypto (RFC 6238: HMAC-SHA-1, 30 s, 6 digits), apart from the
 * app's own WebCrypto code, so a bug there fails a test instead of being mirrored.
 */
import { createHmac } from 'node:crypto'
import { Browser, csrfOf } from '../dashboard/helpers.js'
import type { Paylinks } from '../support/harness.js'

export const PASSWORD = 'correct horse battery staple'

/** RFC 4648 base32 decoding, written for the tests. */
function base32(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const ch of text.replace(/\s+/g, '').toUpperCase()) {
    const v = alphabet.indexOf(ch)
    if (v < 0) throw new Error(`not base32: ${ch}`)
    bits += v.toString(2).padStart(5, '0')
  }
  const bytes: number[] = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/** The TOTP code of `secret` at `time` (ms). */
export function totp(secret: string, time: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(time / 30_000)))
  const mac = createHmac('sha1', base32(secret)).update(counter).digest()
  const offset = mac[19]! & 0x0f
  const value = mac.readUInt32BE(offset) & 0x7fffffff
  return String(value % 1_000_000).padStart(6, '0')
}

/** Signs in with e-mail and password; returns the answer (303 or the page). */
export async function passwordLogin(browser: Browser, email: string, password = PASSWORD) {
  const _csrf = await browser.formToken('/dashboard/login')
  return browser.post('/dashboard/login/password', { email, password, _csrf })
}

/** The hidden `pending` field of a second-step or set-up page. */
export function pendingOf(html: string): string {
  const match = /name="pending" value="([^"]+)"/.exec(html)
  if (!match) throw new Error('No pending field on the page')
  return match[1]!
}

/** The invitation link shown once on the people page after inviting. */
export function inviteLinkOf(html: string): string {
  const match = /id="invite-url" class="ltr" value="([^"]+)"/.exec(html)
  if (!match) throw new Error('No invitation link on the page')
  return new URL(match[1]!.replace(/&amp;/g, '&')).pathname
}

/** The TOTP secret shown as text on a set-up page. */
export function secretOf(html: string): string {
  const match = /data-secret="totp">([^<]+)</.exec(html)
  if (!match) throw new Error('No TOTP secret on the page')
  return match[1]!.replace(/\s+/g, '')
}

/** The recovery codes shown once. */
export function recoveryCodesOf(html: string): string[] {
  const list = /data-recovery-codes="true">(.*?)<\/ul>/s.exec(html)
  if (!list) throw new Error('No recovery codes on the page')
  return [...list[1]!.matchAll(/<li>([^<]+)<\/li>/g)].map((m) => m[1]!)
}

/** Invites `email` as `role` from a signed-in owner's browser; returns the link's path. */
export async function invite(owner: Browser, email: string, role: string): Promise<string> {
  const response = await owner.submit('/dashboard/people', '/dashboard/people/invites', {
    email,
    role,
  })
  if (response.status !== 200) throw new Error(`Invite failed: ${response.status}`)
  return inviteLinkOf(await response.text())
}

/** Accepts an invitation in a fresh browser; returns the browser and the answer. */
export async function accept(
  paylinks: Paylinks,
  link: string,
  name: string,
  password = PASSWORD,
): Promise<{ browser: Browser; response: Response }> {
  const browser = new Browser(paylinks, { 'accept-language': 'en' })
  const page = await browser.get(link)
  if (page.status !== 200) throw new Error(`Invitation page: ${page.status}`)
  const _csrf = csrfOf(await page.text())
  const response = await browser.post(link, { name, password, _csrf })
  return { browser, response }
}

/** The audit log's rows, oldest first. */
export function auditRows(paylinks: Paylinks) {
  return paylinks.sqlite.sqlite
    .prepare(
      'SELECT action, actor_kind, actor_label, target_kind, detail, address FROM audit_log ORDER BY id',
    )
    .all() as {
    action: string
    actor_kind: string
    actor_label: string | null
    target_kind: string | null
    detail: string | null
    address: string | null
  }[]
}
