/** `GET /terms`: the online-payment terms and a default for the merchant's terms of sale. */
import { Hono } from 'hono'
import { Layout } from '../../views/layout.js'
import type { AppEnv } from '../app-deps.js'
import { pageContext, pageLanguage } from './page.js'

export const termsRoutes = new Hono<AppEnv>()

termsRoutes.get('/terms', (c) => {
  const ctx = pageContext(c, pageLanguage(c))
  const { t } = ctx
  return c.html(
    <Layout ctx={ctx} title={t('termsTitle')}>
      <section class="card">
        <h1>{t('termsTitle')}</h1>
        <h2 id="online">{t('termsOnlineTitle')}</h2>
        <p>{t('termsOnlineText')}</p>
        <h2 id="merchant">{t('termsMerchantTitle')}</h2>
        <p>{t('termsMerchantText')}</p>
      </section>
    </Layout>,
  )
})
