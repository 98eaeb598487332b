/** A link's custom fields through the dashboard's link form: one line per field, errors by line. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { getLinkById } from '../../src/data/links.js'
import { type Paylinks, startPaylinks } from '../support/harness.js'
import { storeLink } from '../support/links.js'
import { type Browser, manualClock, signedIn } from './helpers.js'

let paylinks: Paylinks
let browser: Browser

beforeEach(async () => {
  paylinks = await startPaylinks({ clock: manualClock() })
  browser = await signedIn(paylinks)
})
afterEach(() => paylinks.close())

const linkCount = () =>
  (paylinks.sqlite.sqlite.prepare('SELECT count(*) AS n FROM links').get() as { n: number }).n

async function create(form: Record<string, string>, path = '/dashboard/links/new') {
  return browser.submit(path, '/dashboard/links', {
    title: 'T-shirt',
    pricing: 'fixed',
    amount: '2500',
    language: 'fr',
    active: 'on',
    ...form,
  })
}

function fieldError(html: string, field: string): string | undefined {
  return new RegExp(`<p class="err" id="${field}-err">([^<]*)</p>`).exec(html)?.[1]
}

describe('custom fields in the link form', () => {
  it('creates a link with its fields, read from lines in any language’s words', async () => {
    const response = await create({
      custom_fields:
        'wilaya | Wilaya de livraison | wilaya | obligatoire\n\nsize | Taille | select | required | S; M ;L\naddress | Adresse | address',
    })
    expect(response.status).toBe(303)
    const id = /links\/(lnk_\w+)\?/.exec(response.headers.get('location') ?? '')?.[1] ?? ''
    const link = await getLinkById(paylinks.deps.db, id)
    expect(link?.customFields).toEqual([
      {
        key: 'wilaya',
        label: 'Wilaya de livraison',
        type: 'wilaya',
        options: null,
        required: true,
      },
      { key: 'size', label: 'Taille', type: 'select', options: ['S', 'M', 'L'], required: true },
      { key: 'address', label: 'Adresse', type: 'address', options: null, required: false },
    ])
    // The link's page lists its questions.
    const shown = await (await browser.get(`/dashboard/links/${id}`)).text()
    expect(shown).toContain('<bdi dir="ltr">cf_wilaya · wilaya</bdi> · required')
    expect(shown).toContain('<bdi dir="auto">S; M; L</bdi>')
    const edit = await (await browser.get(`/dashboard/links/${id}/edit`)).text()
    expect(edit).toContain(
      'wilaya | Wilaya de livraison | wilaya | required\nsize | Taille | select | required | S; M; L\naddress | Adresse | address | optional</textarea>',
    )
  })

  it('names the line of a bad field, in the page’s language, storing nothing', async () => {
    const unreadable = await (
      await create({ custom_fields: 'note | Note | text\ncolour | Couleur | colour' })
    ).text()
    expect(fieldError(unreadable, 'custom_fields')).toBe(
      'Line 2: write key | label | type | required or optional | options.',
    )
    const select = await (
      await create({ custom_fields: 'note | Note | text\nsize | Taille | select | required' })
    ).text()
    expect(fieldError(select, 'custom_fields')).toBe('Line 2: A select field needs its options.')
    const key = await (await create({ custom_fields: 'Note | Note | text' })).text()
    expect(fieldError(key, 'custom_fields')).toBe(
      'Line 1: The key must be 1 to 40 lower-case letters, digits or _.',
    )
    // The page's language (kept for the next pages too).
    const twice = await (
      await create(
        { custom_fields: 'note | Note | text\n\nnote | Autre | number' },
        '/dashboard/links/new?lang=fr',
      )
    ).text()
    expect(fieldError(twice, 'custom_fields')).toBe('Ligne 3 : Deux champs ont cette clé.')
    expect(linkCount()).toBe(0)
  })

  it('clears a link’s fields when the lines are emptied, and leaves them when unchanged', async () => {
    const link = await storeLink(paylinks, {
      customFields: [{ key: 'note', label: 'Note', type: 'text', options: null, required: false }],
    })
    const edit = `/dashboard/links/${link.id}/edit`
    const save = (fields: Record<string, string>) =>
      browser.submit(edit, `/dashboard/links/${link.id}`, {
        title: link.title,
        pricing: 'fixed',
        amount: '1500',
        language: 'fr',
        active: 'on',
        ...fields,
      })
    expect(
      (await save({ custom_fields: 'note | Note | text | optional', title: 'Autre' })).status,
    ).toBe(303)
    expect((await getLinkById(paylinks.deps.db, link.id))?.customFields).toHaveLength(1)
    expect((await save({ custom_fields: '' })).status).toBe(303)
    expect((await getLinkById(paylinks.deps.db, link.id))?.customFields).toBeNull()
  })
})
