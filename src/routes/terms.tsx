/**
 * `GET /terms`: the online-payment terms and the merchant's terms of sale — the text set in the
 * settings (in the page's language when there is one), else a link to the merchant's terms URL,
 * else a default — with the merchant's contact details.
 */
import { Hono } from 'hono'
import { MerchantContacts } from '../../views/contacts.js'
import { Layout } from '../../views/layout.js'
import type { AppEnv } from '../deps.js'
import { termsTextIn } from '../domain/brand.js'
import { pageContext, pageLanguage } from './page.js'

export const termsRoutes = new Hono<AppEnv>()

/** Paragraphs of stored text: blank lines part them, single line breaks stay. */
const paragraphs = (text: string) =>
  text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')

termsRoutes.get('/terms', async (c) => {
  const ctx = pageContext(c, pageLanguage(c))
  const { t } = ctx
  const texts = await c.get('termsTexts')(ctx.lang)
  const brand = c.get('brand').current()
  const stored = termsTextIn(brand, ctx.lang)
  return c.html(
    <Layout ctx={ctx} title={t('termsTitle')}>
      <section class="card">
        <h1>{t('termsTitle')}</h1>
        <h2 id="online">{t('termsOnlineTitle')}</h2>
        <p>{texts.online}</p>
        <h2 id="merchant">{t('termsMerchantTitle')}</h2>
        {stored ? (
          <div class="terms-text" lang={stored.lang} dir="auto">
            {paragraphs(stored.text).map((p) => (
              <p>{p}</p>
            ))}
          </div>
        ) : brand.termsUrl && brand.termsUrl !== '/terms' ? (
          <p>
            <a href={brand.termsUrl} rel="noopener">
              {t('termsMerchantLink')}
            </a>
          </p>
        ) : (
          <p>{texts.merchant}</p>
        )}
      </section>
      <MerchantContacts ctx={ctx} />
    </Layout>,
  )
})
