/**
 * The form field of every page, customer and dashboard alike: a label, its control, a hint and an
 * error, tied together by ids so a screen reader reads the hint and the error with the control.
 * `Field` draws a text-like control (input, textarea, select); `Check` a checkbox or radio in its
 * label; `Choices` a fieldset of them with one error for the group.
 */
import type { Child } from 'hono/jsx'

/** A control's accessible state: invalid when it has an error, described by its error and hint. */
export function described(id: string, error: string | undefined, hint?: string) {
  const ids = [error ? `${id}-err` : '', hint ?? ''].filter(Boolean).join(' ')
  return { 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': ids || undefined }
}

/** A field's error, tied to its control by id (`<id>-err`). */
export function FieldError(props: { id: string; error: string | undefined }) {
  return props.error ? (
    <p class="err" id={`${props.id}-err`}>
      {props.error}
    </p>
  ) : null
}

/** A control's attributes other than its id, type and accessible state, in the order written. */
export type ControlAttributes = Record<string, string | number | boolean | undefined>

export interface FieldProps {
  /** The control's id, which the label names. */
  id: string
  label: Child
  /** The control: an `<input>` (the default), a `<textarea>` or a `<select>`. */
  as?: 'input' | 'textarea' | 'select'
  /** The input's type, written before the id. */
  type?: string
  /** The control's other attributes (name, value, limits…), written after the id in this order. */
  attrs?: ControlAttributes
  /** A select's options, or a textarea's text. */
  children?: Child
  /** The hint under the control, which the control is described by. */
  hint?: Child
  /** The hint's id; `<errorId>-hint` unless given. */
  hintId?: string
  /** The error under the control; it marks the control invalid and describes it. */
  error?: string | undefined
  /** What the error's id (`<errorId>-err`) is made of, when it is not the control's id. */
  errorId?: string
  /** Marks the control invalid though its error is said elsewhere on the page (a sign-in's). */
  invalid?: boolean
  /** aria-describedby names the hint before the error (by default the error comes first). */
  hintFirst?: boolean
  /** aria-describedby is written before aria-invalid (by default after). */
  describedByFirst?: boolean
  /** The field in a `<div>` of its own, as a cell of a `.grid`. */
  wrap?: boolean
}

/** The label, the control, then its hint and its error. */
export function Field(props: FieldProps) {
  const errorId = props.errorId ?? props.id
  const hintId = props.hint === undefined ? undefined : (props.hintId ?? `${errorId}-hint`)
  const errorRef = props.error ? `${errorId}-err` : ''
  const refs = props.hintFirst ? [hintId, errorRef] : [errorRef, hintId]
  const describedBy = refs.filter(Boolean).join(' ') || undefined
  const invalid = (props.invalid ?? Boolean(props.error)) ? 'true' : undefined
  const aria = props.describedByFirst
    ? { 'aria-describedby': describedBy, 'aria-invalid': invalid }
    : { 'aria-invalid': invalid, 'aria-describedby': describedBy }
  const attributes = {
    ...(props.type === undefined ? {} : { type: props.type }),
    id: props.id,
    ...props.attrs,
    ...aria,
  }
  const control =
    props.as === 'textarea' ? (
      <textarea {...attributes}>{props.children}</textarea>
    ) : props.as === 'select' ? (
      <select {...attributes}>{props.children}</select>
    ) : (
      <input {...attributes} />
    )
  const field = (
    <>
      <label for={props.id}>{props.label}</label>
      {control}
      {hintId ? (
        <p id={hintId} class="hint muted">
          {props.hint}
        </p>
      ) : null}
      <FieldError id={errorId} error={props.error} />
    </>
  )
  return props.wrap ? <div>{field}</div> : field
}

/** A checkbox or radio inside its label (`label.check`), followed by `children`, its words. */
export function Check(props: {
  type: 'checkbox' | 'radio'
  attrs: ControlAttributes
  children: Child
}) {
  return (
    <label class="check">
      <input type={props.type} {...props.attrs} />
      {props.children}
    </label>
  )
}

/**
 * A group of checkboxes or radios: a fieldset named by its legend, described by the group's
 * error (`<id>-err`), which closes the group.
 */
export function Choices(props: {
  id: string
  legend: Child
  error: string | undefined
  children: Child
}) {
  return (
    <fieldset {...described(props.id, props.error)}>
      <legend>{props.legend}</legend>
      {props.children}
      <FieldError id={props.id} error={props.error} />
    </fieldset>
  )
}
