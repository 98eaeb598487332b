import type { ShareLinks } from '../../src/dashboard/share-links.js'
import type { DashContext } from './layout.js'

/**
 * The link page's script. Its buttons start hidden and show only when it runs. Copying falls back
 * to selecting the text where the Clipboard API is unavailable (plain http on another host than
 * localhost); the share sheet button shows only where the browser has one (Web Share API).
 */
export const SHARE_SCRIPT = `
for (const button of document.querySelectorAll('[data-copy]')) {
  const input = document.getElementById(button.dataset.copy)
  button.hidden = false
  button.addEventListener('click', async () => {
    try { await navigator.clipboard.writeText(input.value) }
    catch { input.select(); document.execCommand('copy') }
    button.textContent = button.dataset.done
  })
}
const share = document.querySelector('[data-share]')
if (share && navigator.share) {
  share.hidden = false
  const { title, text, url } = share.dataset
  share.addEventListener('click', () => navigator.share({ title, text, url }).catch(() => {}))
}`

/** A button that copies the value of the field `target` (shown by SHARE_SCRIPT). */
export function CopyButton(props: { ctx: DashContext; target: string; label: string }) {
  return (
    <button
      type="button"
      class="small"
      data-copy={props.target}
      data-done={props.ctx.t('copied')}
      hidden
    >
      {props.label}
    </button>
  )
}

/** The warning that customers' phones cannot open PUBLIC_URL (a loopback or private address). */
export function LocalUrlWarning(props: { ctx: DashContext; host: string | undefined }) {
  if (props.host === undefined) return null
  return (
    <p class="alert" data-warning="local-public-url">
      {props.ctx.t('localPublicUrl', { host: props.host })}
    </p>
  )
}

/**
 * Sharing a link: WhatsApp, SMS, e-mail, the phone's share sheet, and the HTML of a "Pay" button
 * for the merchant's site, ready to copy. Apps open as new pages; nothing is loaded from outside.
 */
export function LinkShare(props: {
  ctx: DashContext
  title: string
  url: string
  share: ShareLinks
  payButton: string
}) {
  const { ctx, share } = props
  const t = ctx.t
  return (
    <section class="card" aria-labelledby="share-title">
      <h2 id="share-title">{t('shareTitle')}</h2>
      <div class="actions share">
        <a class="btn small secondary" href={share.whatsapp} target="_blank" rel="noopener">
          {t('shareWhatsapp')}
        </a>
        <a class="btn small secondary" href={share.sms}>
          {t('shareSms')}
        </a>
        <a class="btn small secondary" href={share.email}>
          {t('shareEmail')}
        </a>
        <button
          type="button"
          class="small secondary"
          data-share
          data-title={props.title}
          data-text={share.message}
          data-url={props.url}
          hidden
        >
          {t('shareMore')}
        </button>
      </div>
      <label for="pay-button-code">{t('embedTitle')}</label>
      <p class="hint muted" id="pay-button-hint">
        {t('embedHint')}
      </p>
      <textarea
        id="pay-button-code"
        class="ltr code"
        rows={4}
        readonly
        aria-describedby="pay-button-hint"
      >
        {props.payButton}
      </textarea>
      <div class="actions">
        <CopyButton ctx={ctx} target="pay-button-code" label={t('copyCode')} />
      </div>
    </section>
  )
}
