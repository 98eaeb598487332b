import type { PageContext } from './layout.js'

/** The merchant's contact details from the settings page, when any is set. */
export function MerchantContacts(props: { ctx: PageContext }) {
  const { ctx } = props
  const contacts = ctx.brand?.contacts
  if (!contacts || (!contacts.phone && !contacts.email && !contacts.address)) return null
  const { t } = ctx
  return (
    <section class="card contacts" aria-labelledby="contacts-title">
      <h2 id="contacts-title">{t('contactTitle')}</h2>
      <dl class="kv">
        {contacts.phone ? (
          <>
            <dt>{t('contactPhone')}</dt>
            <dd>
              <bdi dir="ltr">
                <a href={`tel:${contacts.phone.replace(/[^\d+]/g, '')}`}>{contacts.phone}</a>
              </bdi>
            </dd>
          </>
        ) : null}
        {contacts.email ? (
          <>
            <dt>{t('contactEmail')}</dt>
            <dd>
              <bdi dir="ltr">
                <a href={`mailto:${contacts.email}`}>{contacts.email}</a>
              </bdi>
            </dd>
          </>
        ) : null}
        {contacts.address ? (
          <>
            <dt>{t('contactAddress')}</dt>
            <dd class="address">
              <bdi>{contacts.address}</bdi>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  )
}
