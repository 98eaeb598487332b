/**
 * The audit log's Detail column in the page's language: one entry of every kind of act, with the
 * detail Paylinks records for it, shown in Arabic, French and English without a raw key or code
 * ("amount 125000", "method invite", "second totp"), amounts as money; every action has its
 * renderer; a key no renderer knows still reads as `key: value`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../db/schema.js'
import type { Language } from '../../src/config.js'
import { recordAudit } from '../../src/data/audit.js'
import { ALL_AUDIT_ACTIONS, type AuditAction } from '../../src/domain/audit-actions.js'
import { formatAmount } from '../../src/i18n/index.js'
import { DETAILS } from '../../views/dashboard/audit-detail.js'
import { AUDIT_SAMPLES, AUDIT_VARIANTS, type AuditSample } from '../support/audit-samples.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { T0 } from '../support/manual-time.js'
import { Browser } from './helpers.js'

let p: Paylinks
let browser: Browser
beforeAll(async () => {
  p = await startPaylinks({ clock: () => T0 })
  browser = new Browser(p, { 'accept-language': 'en', 'x-test-ip': '192.0.2.10' })
  expect((await browser.login()).status).toBe(303)
  // The person a key acted for, named by the page.
  await p.deps.db.insert(users).values({
    id: 'usr_2b7c9d1e4f',
    email: 'caisse@boutique.example.dz',
    name: 'Samir',
    role: 'manager',
    passwordHash: 'x',
    createdAt: T0,
    updatedAt: T0,
  })
  const person = {
    kind: 'user' as const,
    userId: 'usr_2b7c9d1e4f',
    email: 'caisse@boutique.example.dz',
    name: 'Samir',
    role: 'manager' as const,
  }
  const entries: [AuditAction, AuditSample][] = [
    ...(Object.entries(AUDIT_SAMPLES) as [AuditAction, AuditSample][]),
    ...AUDIT_VARIANTS,
  ]
  for (const [action, sample] of entries)
    await recordAudit(p.deps.db, {
      at: T0,
      action,
      actor: person,
      ...sample,
      address: '203.0.113.5',
    })
})
afterAll(() => p.close())

/** Each row's Detail cell: its lines and its whole text (tags out, runs of spaces as one). */
async function details(
  lang: Language,
): Promise<{ action: string; lines: string[]; text: string }[]> {
  // Every page of the log: the samples of every act fill more than one.
  let html = ''
  for (let next: string | undefined = `/dashboard/audit?lang=${lang}`; next; ) {
    const page: string = await (await browser.get(next)).text()
    expect(page).toContain(`<html lang="${lang}"`)
    html += page
    const href: string | undefined = /<a href="([^"]+)" rel="next">/.exec(page)?.[1]
    next = href?.replaceAll('&amp;', '&')
  }
  const plain = (markup: string) =>
    spaced(
      markup
        .replace(/<\/li>/g, ' ')
        .replace(/<[^>]+>/g, '')
        .replaceAll('&amp;', '&')
        .replaceAll('&#39;', "'"),
    ).trim()
  return [...html.matchAll(/<tr data-audit-id="\d+" data-action="(\w+)">([\s\S]*?)<\/tr>/g)].map(
    (m) => {
      const cells = [...m[2]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)]
      const detail = cells.at(-1)?.[1] ?? ''
      const lines = [...detail.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((li) => plain(li[1]!))
      return { action: m[1]!, lines, text: plain(detail) }
    },
  )
}

/**
 * Keys and codes as recorded, which a person should never have to read: a line that starts with
 * a key and its value (as the page showed them: "amount 125000"), names in snake or camel case,
 * JSON.
 */
const RAW = [
  /^amount:? 125000\b/,
  /^method:? (password|invite|admin_token)\b/,
  /^second:? (totp|recovery|enrolled)\b/,
  /^step:? code\b/,
  /^left:? 7\b/,
  /^sessions:? 3\b/,
  /^source:? till\b/,
  /^role:? (owner|manager|cashier|viewer)\b/,
  /^scope:? (read|write)\b/,
  /^change:? (set|removed)\b/,
  /^(width|height|bytes|items|key):? /,
  /^(search|enabled):? (true|false)\b/,
  /^(fields|filters|url|title|email|export|status|from|to|prefix|name|user_id|reason):? /,
  /\btotp\b/,
  /\b[a-z]+_[a-z_]+\b/,
  /\b[a-z]+[A-Z][A-Za-z]+\b/,
  /\b(true|false)\b/,
  /[{}"]/,
]

/** Codes that are English words: raw in French or Arabic (an English page may use the words). */
const CODES = [/\bpassword\b/, /\b(cashier|manager|viewer)\b/, /\bwrite\b/, /(?<![.\w])paid\b/]

/** Text as the test reads it: every run of spaces (no-break ones too) as one space. */
const spaced = (text: string) => text.replace(/\s+/g, ' ')

describe('the audit log’s details in the page’s language', () => {
  for (const lang of ['fr', 'ar', 'en'] as const) {
    it(`shows every action's detail in ${lang} without raw keys, amounts as money`, async () => {
      const rows = await details(lang)
      // Every action, each variant, and the sign-in of this test.
      expect(new Set(rows.map((r) => r.action))).toEqual(new Set(ALL_AUDIT_ACTIONS))
      const raw = lang === 'en' ? RAW : [...RAW, ...CODES]
      const found = rows.flatMap((row) =>
        row.lines.flatMap((line) =>
          raw
            .filter((pattern) => pattern.test(line))
            .map((p) => `${row.action}: ${p} in "${line}"`),
        ),
      )
      expect(found).toEqual([])
      const amounts = (action: AuditAction) =>
        rows.filter((r) => r.action === action).map((r) => r.text)
      expect(amounts('link_created')).toContainEqual(
        expect.stringContaining(spaced(formatAmount(125000, lang))),
      )
      expect(amounts('payment_canceled')).toContainEqual(
        expect.stringContaining(spaced(formatAmount(250000, lang))),
      )
    })
  }

  it('words the details as the forms and pages do, in French', async () => {
    const rows = await details('fr')
    const of = (action: AuditAction, has: string) =>
      rows.filter((r) => r.action === action).find((r) => r.text.includes(has))?.text
    const is = (action: AuditAction, has: string, text: string) =>
      expect(of(action, has)).toBe(spaced(text))
    expect(formatAmount(125000, 'fr')).toMatch(/^1\s250,00\sDA$/)
    is(
      'link_created',
      'caisse',
      `Une vente à la caisse Montant\u00a0: ${formatAmount(125000, 'fr')}`,
    )
    is(
      'link_updated',
      'Modifié',
      'Titre\u00a0: Atelier poterie Modifié\u00a0: Montant, Description et Paiements réussis au plus',
    )
    is(
      'login',
      'application',
      'Avec\u00a0: mot de passe Deuxième étape\u00a0: code de l’application d’authentification',
    )
    is('login', 'invitation', 'Avec\u00a0: lien d’invitation')
    is(
      'role_changed',
      'Rôle',
      'E-mail\u00a0: caisse@boutique.example.dz Rôle\u00a0: Caissier → Gestionnaire',
    )
    is(
      'settings_changed',
      'Modifié',
      'Modifié\u00a0: Nom de la boutique, Couleur de la marque et Durée d’un lien de caisse (minutes)',
    )
    is('logo_changed', 'Nouveau', 'Nouveau logo\u00a0: PNG, 240 × 96 px, 18 Ko')
    is(
      'export_downloaded',
      'recherche',
      'Fichier\u00a0: payments.csv État\u00a0: Payé Du\u00a0: 2026-11-01 Avec une recherche (son texte n’est pas conservé).',
    )
    expect(of('key_revoked', 'Portée')).toContain(
      spaced('Portée\u00a0: lecture Agit pour\u00a0: caisse@'),
    )
    is(
      'webhook_endpoint_updated',
      'Envoi',
      'Adresse (URL)\u00a0: https://erp.boutique.example.dz/hooks/paylinks Envoi\u00a0: Désactivé',
    )
  })

  it('isolates addresses and ids left to right in Arabic', async () => {
    const html = await (await browser.get('/dashboard/audit?lang=ar')).text()
    expect(html).toContain('<bdi dir="ltr">https://erp.boutique.example.dz/hooks/paylinks</bdi>')
    expect(html).toContain('<code dir="ltr">evt_6f0e2d9c</code>')
    expect(html).toMatch(/<bdi class="clip" dir="ltr" title="203\.0\.113\.5">203\.0\.113\.5<\/bdi>/)
  })

  it('shows a key no renderer knows as "key: value", its label translated when known', async () => {
    await recordAudit(p.deps.db, {
      at: T0 + 1000,
      action: 'link_deleted',
      actor: { kind: 'admin' },
      target: { kind: 'link', id: 'lnk_9xk2m4' },
      detail: { amount: 5000, zone: 'nord', items: [1, 2], gone: null },
    })
    const [row] = await details('fr')
    expect(row?.action).toBe('link_deleted')
    expect(row?.text).toBe(
      spaced(`Montant\u00a0: ${formatAmount(5000, 'fr')} zone\u00a0: nord items\u00a0: 1, 2`),
    )
  })
})

describe('the renderers', () => {
  it('has one for every action', () => {
    const missing = ALL_AUDIT_ACTIONS.filter((action) => typeof DETAILS[action] !== 'function')
    expect(missing).toEqual([])
    expect(Object.keys(DETAILS).sort()).toEqual([...ALL_AUDIT_ACTIONS].sort())
  })
})
