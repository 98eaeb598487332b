/**
 * The one form field: the markup it draws for each kind of control, the ids that tie the label,
 * the hint and the error to the control, and hostile text shown as text.
 */
import { describe, expect, it } from 'vitest'
import { Check, Choices, Field } from '../../views/field.js'

/** The HTML of a JSX element (every part of the field renders synchronously). */
const html = (node: unknown) => String((node as { toString(): unknown }).toString())

describe('Field', () => {
  it('draws the label, the input (type, id, then its attributes in order), the hint and the error', () => {
    const out = html(
      <Field
        id="url"
        label="Address"
        type="url"
        attrs={{ name: 'url', value: 'ftp://x', class: 'ltr', maxlength: 2000, required: true }}
        hint="https:// only"
        error="Enter an https:// address."
      />,
    )
    expect(out).toBe(
      '<label for="url">Address</label>' +
        '<input type="url" id="url" name="url" value="ftp://x" class="ltr" maxlength="2000" required=""' +
        ' aria-invalid="true" aria-describedby="url-err url-hint"/>' +
        '<p id="url-hint" class="hint muted">https:// only</p>' +
        '<p class="err" id="url-err">Enter an https:// address.</p>',
    )
  })

  it('without an error: not invalid, described by its hint alone, no error paragraph', () => {
    const out = html(<Field id="memo" label="Memo" type="text" attrs={{ name: 'memo' }} hint="h" />)
    expect(out).toBe(
      '<label for="memo">Memo</label>' +
        '<input type="text" id="memo" name="memo" aria-describedby="memo-hint"/>' +
        '<p id="memo-hint" class="hint muted">h</p>',
    )
  })

  it('with neither hint nor error, the control carries no aria attribute', () => {
    const out = html(<Field id="f-from" label="From" type="date" attrs={{ name: 'from' }} wrap />)
    expect(out).toBe(
      '<div><label for="f-from">From</label><input type="date" id="f-from" name="from"/></div>',
    )
  })

  it('names its error and hint after errorId, or hintId, when they differ from the control', () => {
    const out = html(
      <Field
        id="key-name"
        errorId="name"
        label="Name"
        attrs={{ name: 'name' }}
        hint="h"
        error="e"
      />,
    )
    expect(out).toContain('<label for="key-name">')
    expect(out).toContain('id="key-name" name="name" aria-invalid="true"')
    expect(out).toContain('aria-describedby="name-err name-hint"')
    expect(out).toContain('<p id="name-hint" class="hint muted">h</p>')
    expect(out).toContain('<p class="err" id="name-err">e</p>')
    const logo = html(<Field id="logo-file" label="Logo" hint="PNG" hintId="logo-hint" />)
    expect(logo).toContain('aria-describedby="logo-hint"/><p id="logo-hint"')
  })

  it('puts the hint first in aria-describedby, or aria-describedby before aria-invalid, on request', () => {
    const first = html(<Field id="password" label="P" hint="rules" hintFirst error="weak" />)
    expect(first).toContain('aria-invalid="true" aria-describedby="password-hint password-err"')
    const sign = html(<Field id="token" label="T" hint="h" invalid describedByFirst />)
    expect(sign).toContain('aria-describedby="token-hint" aria-invalid="true"/>')
    expect(sign).not.toContain('class="err"')
  })

  it('draws a textarea or a select around its children', () => {
    const area = html(
      <Field id="note" label="Note" as="textarea" attrs={{ name: 'note', rows: 2 }} error="long">
        text
      </Field>,
    )
    expect(area).toBe(
      '<label for="note">Note</label>' +
        '<textarea id="note" name="note" rows="2" aria-invalid="true" aria-describedby="note-err">text</textarea>' +
        '<p class="err" id="note-err">long</p>',
    )
    const select = html(
      <Field id="lang" label="Language" as="select" attrs={{ name: 'language' }}>
        <option value="ar">AR</option>
      </Field>,
    )
    expect(select).toBe(
      '<label for="lang">Language</label><select id="lang" name="language"><option value="ar">AR</option></select>',
    )
  })

  it('shows what a visitor typed, and an error quoting it, as text', () => {
    const typed = '"><script>alert(1)</script>'
    const out = html(
      <Field id="title" label="Title" attrs={{ name: 'title', value: typed }} error={typed} />,
    )
    expect(out).not.toContain('<script>')
    expect(out).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(out).toContain('<p class="err" id="title-err">&quot;&gt;&lt;script&gt;')
  })
})

describe('Check and Choices', () => {
  it('draw a radio group in a fieldset described by the group error, which closes it', () => {
    const out = html(
      <Choices id="scope" legend="Scope" error="Choose one">
        <Check type="radio" attrs={{ name: 'scope', value: 'read', checked: true }}>
          <span>Read</span>
        </Check>
        <Check type="radio" attrs={{ name: 'scope', value: 'write', checked: false }}>
          <span>Write</span>
        </Check>
      </Choices>,
    )
    expect(out).toBe(
      '<fieldset aria-invalid="true" aria-describedby="scope-err"><legend>Scope</legend>' +
        '<label class="check"><input type="radio" name="scope" value="read" checked=""/><span>Read</span></label>' +
        '<label class="check"><input type="radio" name="scope" value="write"/><span>Write</span></label>' +
        '<p class="err" id="scope-err">Choose one</p></fieldset>',
    )
  })

  it('without an error, the fieldset carries no aria attribute', () => {
    const out = html(
      <Choices id="events" legend="Events" error={undefined}>
        <Check type="checkbox" attrs={{ name: 'e', value: 'a' }}>
          <code>a</code>
        </Check>
      </Choices>,
    )
    expect(out).toBe(
      '<fieldset><legend>Events</legend><label class="check"><input type="checkbox" name="e" value="a"/>' +
        '<code>a</code></label></fieldset>',
    )
  })
})
