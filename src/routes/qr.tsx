/** QR codes of a link's URL (SVG, PNG), cached per link with an ETag, and the printable poster. */

import type { Context } from 'hono'
import { Hono } from 'hono'
import { PosterPage } from '../../views/poster.js'
import { readLinkBySlug } from '../data/links.js'
import type { AppEnv } from '../deps.js'
import { PUBLIC_IMAGE_HEADERS } from '../http/security-headers.js'
import { sha256Hex } from '../lib/hash.js'
import { localHostOf } from '../lib/local-address.js'
import { qrMatrix, qrPng, qrSvg } from '../qr/qr.js'
import { notFoundPage } from './error-pages.js'
import { pageContext, pageLanguage } from './page.js'

export const qrRoutes = new Hono<AppEnv>()

qrRoutes.get('/l/:slug/qr.svg', (c) => serveQr(c, 'svg'))
qrRoutes.get('/l/:slug/qr.png', (c) => serveQr(c, 'png'))

async function serveQr(c: Context<AppEnv>, format: 'svg' | 'png') {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug') ?? '', c.get('linkCache'))
  if (!link) return notFoundPage(c)
  const url = `${c.get('config').publicUrl}/l/${link.slug}`
  const key = `${format}:${url}`
  let entry = c.get('qrCache').get(key)
  if (!entry) {
    const matrix = qrMatrix(url)
    const body = format === 'svg' ? qrSvg(matrix, { title: url }) : await qrPng(matrix, 10)
    entry = { body, etag: `"${(await sha256Hex(key)).slice(0, 32)}"` }
    c.get('qrCache').set(key, entry)
  }
  c.header('ETag', entry.etag)
  c.header('Cache-Control', 'public, max-age=86400')
  for (const [name, value] of PUBLIC_IMAGE_HEADERS) c.header(name, value)
  if (c.req.header('if-none-match') === entry.etag) return c.body(null, 304)
  c.header('Content-Type', format === 'svg' ? 'image/svg+xml; charset=utf-8' : 'image/png')
  if (c.req.query('download') !== undefined) {
    c.header('Content-Disposition', `attachment; filename="paylink-${link.slug}.${format}"`)
  }
  return c.body(entry.body as never)
}

qrRoutes.get('/l/:slug/poster', async (c) => {
  const link = await readLinkBySlug(c.get('db'), c.req.param('slug'), c.get('linkCache'))
  if (!link) return notFoundPage(c)
  await c.get('brand').at(c.get('db'), link.brandingVersion)
  const lang = pageLanguage(c, link.language)
  const publicUrl = c.get('config').publicUrl
  const url = `${publicUrl}/l/${link.slug}`
  const ctx = pageContext(c, lang)
  // The merchant looking at the poster before printing it is told when its QR code leads nowhere.
  const localHost = localHostOf(publicUrl)
  const warning = localHost ? ctx.t('localPublicUrl', { host: localHost }) : undefined
  return c.html(
    <PosterPage
      ctx={ctx}
      title={link.title}
      amount={link.amount}
      url={url}
      qrSvg={qrSvg(qrMatrix(url), { title: `${ctx.t('qrLabel')} ${url}` })}
      warning={warning}
    />,
  )
})
