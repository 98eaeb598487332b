/** The favicon: at its hashed address for a year, at `/favicon.ico` and `/favicon.svg` for a day. */
import { Hono } from 'hono'
import { FAVICON_PATH, FAVICON_SVG } from '../../views/favicon.js'
import type { AppEnv } from '../deps.js'

export const faviconRoutes = new Hono<AppEnv>()

const send = (maxAge: string) => () =>
  new Response(FAVICON_SVG, {
    headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': `public, ${maxAge}` },
  })

faviconRoutes.get(FAVICON_PATH, send('max-age=31536000, immutable'))
// Browsers that ask for the conventional addresses on their own (a page without the link tag).
faviconRoutes.get('/favicon.ico', send('max-age=86400'))
faviconRoutes.get('/favicon.svg', send('max-age=86400'))
