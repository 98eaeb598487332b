import { Field } from '../field.js'
import { CsrfField, type DashContext, DashLayout } from './layout.js'
import { Notice } from './parts.js'

/** The product form as posted: every field as text (an empty stock is an unlimited one). */
export type ProductFormValues = {
  name: string
  description: string
  price: string
  stock: string
  sku: string
}

type Errors = Partial<Record<keyof ProductFormValues, string>>

/** What the page shows of a stored product beside its form. */
export type ProductSummary = {
  id: string
  name: string
  active: boolean
  /** Sold once or more: archived, never deleted. */
  sold: boolean
  image: { src: string; width: number; height: number } | null
}

function ActionButton(props: {
  ctx: DashContext
  action: string
  label: string
  danger?: boolean
}) {
  return (
    <form class="inline" method="post" action={props.action}>
      <CsrfField ctx={props.ctx} />
      <button type="submit" class={props.danger ? 'small danger' : 'small secondary'}>
        {props.label}
      </button>
    </form>
  )
}

/**
 * A product's page, or a new product's form: name, description, price, stock and SKU, errors
 * beside their fields; for a stored product, its image (preview, upload, removal) and its sale
 * (archive or put back on sale; delete while never sold).
 */
export function ProductFormPage(props: {
  ctx: DashContext
  form: ProductFormValues
  errors: Errors
  product?: ProductSummary | undefined
  notice?: { text: string; kind?: 'ok' | 'error' | undefined } | undefined
  imageError?: string | undefined
}) {
  const { ctx, form, errors, product } = props
  const t = ctx.t
  const title = product ? t('prEditTitle') : t('prNew')
  const action = product ? `/dashboard/products/${product.id}` : '/dashboard/products'
  const hasErrors = Object.keys(errors).length > 0
  return (
    <DashLayout ctx={ctx} title={title} nav="products">
      <section class="card" aria-labelledby="form-title">
        <h1 id="form-title">{title}</h1>
        <Notice text={props.notice?.text} kind={props.notice?.kind} />
        {hasErrors ? (
          <p class="alert" role="alert">
            {t('fixErrors')}
          </p>
        ) : null}
        <form method="post" action={action} novalidate>
          <CsrfField ctx={ctx} />
          <Field
            id="name"
            label={t('prFieldName')}
            type="text"
            attrs={{ name: 'name', value: form.name, dir: 'auto', maxlength: 200, required: true }}
            error={errors.name}
          />
          <Field
            id="description"
            label={t('prFieldDescription')}
            as="textarea"
            attrs={{ name: 'description', dir: 'auto', maxlength: 2000, rows: 3 }}
            error={errors.description}
          >
            {form.description}
          </Field>
          <div class="grid">
            <Field
              id="price"
              label={t('prFieldPrice')}
              type="text"
              attrs={{
                name: 'price',
                value: form.price,
                inputmode: 'decimal',
                class: 'ltr',
                dir: 'ltr',
                required: true,
              }}
              hint={t('prPriceHint')}
              error={errors.price}
              wrap
            />
            <Field
              id="stock"
              label={t('prFieldStock')}
              type="text"
              attrs={{
                name: 'stock',
                value: form.stock,
                inputmode: 'numeric',
                class: 'ltr',
                dir: 'ltr',
              }}
              hint={t('prStockHint')}
              error={errors.stock}
              wrap
            />
          </div>
          <Field
            id="sku"
            label={t('prFieldSku')}
            type="text"
            attrs={{
              name: 'sku',
              value: form.sku,
              class: 'ltr',
              dir: 'ltr',
              maxlength: 64,
              autocomplete: 'off',
            }}
            hint={t('prSkuHint')}
            error={errors.sku}
          />
          <div class="actions">
            <button type="submit">{product ? t('prSave') : t('prCreate')}</button>
            <a class="btn secondary" href="/dashboard/products">
              {t('prBack')}
            </a>
          </div>
        </form>
      </section>
      {product ? <ImageSection ctx={ctx} product={product} error={props.imageError} /> : null}
      {product ? <SaleSection ctx={ctx} product={product} /> : null}
    </DashLayout>
  )
}

/** The product's image: a preview of the current one, the upload form, and removing it. */
function ImageSection(props: {
  ctx: DashContext
  product: ProductSummary
  error: string | undefined
}) {
  const { ctx, product } = props
  const t = ctx.t
  const base = `/dashboard/products/${product.id}`
  return (
    <section class="card" aria-labelledby="image-title" id="image">
      <h2 id="image-title">{t('prImageTitle')}</h2>
      {product.image ? (
        <figure class="logo-preview">
          <img
            src={product.image.src}
            width={product.image.width}
            height={product.image.height}
            alt={t('prImageAlt', { name: product.name })}
          />
        </figure>
      ) : (
        <p class="muted">{t('prImageNone')}</p>
      )}
      <form method="post" action={`${base}/image`} enctype="multipart/form-data">
        <CsrfField ctx={ctx} />
        <Field
          id="image-file"
          label={t('prFieldImage')}
          type="file"
          attrs={{
            name: 'image',
            accept: 'image/png,image/jpeg,image/webp',
            required: true,
            // A refused file: the page opens on the field and its message, far below on a phone.
            autofocus: props.error ? true : undefined,
          }}
          hint={t('stLogoHint')}
          hintId="image-hint"
          error={props.error}
        />
        <div class="actions">
          <button type="submit">{t('prImageUpload')}</button>
        </div>
      </form>
      {product.image ? (
        <form method="post" action={`${base}/image/delete`}>
          <CsrfField ctx={ctx} />
          <div class="actions">
            <button type="submit" class="secondary">
              {t('prImageRemove')}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  )
}

/** On sale or archived; deleting while the product was never sold. */
function SaleSection(props: { ctx: DashContext; product: ProductSummary }) {
  const { ctx, product } = props
  const t = ctx.t
  const base = `/dashboard/products/${product.id}`
  return (
    <section class="card" aria-labelledby="sale-title" id="sale">
      <h2 id="sale-title">{t('prStateTitle')}</h2>
      <p>
        <span class={product.active ? 'badge active' : 'badge inactive'}>
          {t(product.active ? 'prOnSale' : 'prArchivedBadge')}
        </span>
      </p>
      <p class="muted">{t(product.sold ? 'prSoldNote' : 'prUnsoldNote')}</p>
      <div class="actions">
        {product.active ? (
          <ActionButton ctx={ctx} action={`${base}/archive`} label={t('prArchive')} />
        ) : (
          <ActionButton ctx={ctx} action={`${base}/unarchive`} label={t('prUnarchive')} />
        )}
        {product.sold ? null : (
          <ActionButton ctx={ctx} action={`${base}/delete`} label={t('prDelete')} danger />
        )}
      </div>
    </section>
  )
}
