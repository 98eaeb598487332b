/** The till's preset items: one a line, `name; price`, that the keypad offers as buttons. */
import { FieldError } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Notice } from './parts.js'

export function TillPresetsPage(props: {
  ctx: DashContext
  text: string
  error: string | undefined
  saved: boolean
}) {
  const { ctx } = props
  const t = ctx.t
  return (
    <DashLayout ctx={ctx} title={t('tillPresetsTitle')} nav="till">
      <h1>{t('tillPresetsTitle')}</h1>
      <Notice text={props.saved ? t('tillPresetsSaved') : undefined} />
      <form method="post" action="/dashboard/till/presets" class="card">
        <CsrfField ctx={ctx} />
        <label for="presets">{t('tillPresetsLabel')}</label>
        <p class="hint" id="presets-hint">
          {t('tillPresetsHint')}
        </p>
        <textarea
          id="presets"
          name="presets"
          rows={10}
          dir="auto"
          aria-describedby={props.error ? 'presets-hint presets-err' : 'presets-hint'}
          aria-invalid={props.error ? 'true' : undefined}
        >
          {props.text}
        </textarea>
        <FieldError id="presets" error={props.error} />
        <p>
          <button type="submit">{t('tillPresetsSave')}</button>{' '}
          <a href="/dashboard/till">{t('tillBackToTill')}</a>
        </p>
      </form>
    </DashLayout>
  )
}
