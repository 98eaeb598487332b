/**
 * The catalogue in the dashboard (/dashboard/products): the list with its search and pages, a new
 * product, a product's page (its form, its image, archiving and deleting). The form goes through
 * the merchant API's service, so a product made here obeys exactly the API's rules. The image is
 * checked as the logo is (src/domain/logo-image.ts): what its bytes are decides.
 */
import { Hono } from 'hono'
import type { Product } from '../../db/schema.js'
import { ProductFormPage } from '../../views/dashboard/product-form-page.js'
import { ProductsPage, type ProductsStatus } from '../../views/dashboard/products-page.js'
import { createProductBody, parseProductBody, updateProductBody } from '../api/products/schemas.js'
import { allows } from '../auth/principal.js'
import { decodeCursor } from '../data/paging.js'
import {
  deleteProductIfUnsold,
  getProduct,
  listProducts,
  PRODUCT_SEARCH_MAX,
  setProductImage,
} from '../data/products.js'
import { type LogoProblem, readLogo } from '../domain/logo-image.js'
import { productImagePath } from '../domain/product-image.js'
import { toHex } from '../lib/bytes.js'
import { readForm } from '../lib/form-body.js'
import { auditProductDeleted, auditProductImage, auditProductResult } from '../products/audit.js'
import {
  createProductFromBody,
  type ProductResult,
  updateProductFromBody,
} from '../products/service.js'
import { notAllowedPage, productNotFoundPage } from '../routes/error-pages.js'
import { type DashC, type DashEnv, dashContext } from './context.js'
import type { FormProblems } from './link-form.js'
import { translateProblems } from './link-form-routes.js'
import type { DashKey } from './messages.js'
import {
  newProductForm,
  type ProductForm,
  placeProductProblems,
  productFormToBody,
  productToForm,
  readProductForm,
} from './product-form.js'

export const productRoutes = new Hono<DashEnv>()

const PAGE_SIZE = 50
const LIST = '/dashboard/products'

// What a redirect after a change asks the next page to say (`?done=saved`).
const DONE: Record<string, DashKey> = {
  created: 'prCreated',
  saved: 'prSaved',
  archived: 'prArchivedDone',
  unarchived: 'prUnarchivedDone',
  deleted: 'prDeleted',
  image: 'prImageSaved',
  'image-removed': 'prImageRemoved',
}

const doneNotice = (c: DashC) => {
  const key = DONE[c.req.query('done') ?? '']
  return key ? c.get('dt')(key) : undefined
}

const IMAGE_KEYS: Record<LogoProblem | 'logo_missing', DashKey> = {
  logo_missing: 'stErrLogoMissing',
  logo_empty: 'stErrLogoEmpty',
  logo_too_large: 'stErrLogoTooLarge',
  logo_type: 'stErrLogoType',
  logo_broken: 'stErrLogoBroken',
  logo_size: 'stErrLogoSize',
}

const STATUSES: Record<ProductsStatus, boolean | undefined> = {
  '': undefined,
  active: true,
  archived: false,
}

productRoutes.get('/products', async (c) => {
  const cursorText = c.req.query('cursor')
  const cursor = cursorText ? (decodeCursor(cursorText) ?? undefined) : undefined
  const q = (c.req.query('q') ?? '').trim()
  const statusText = (c.req.query('status') ?? '').trim()
  const status = Object.hasOwn(STATUSES, statusText) ? (statusText as ProductsStatus) : null
  const tooLong = q.length > PRODUCT_SEARCH_MAX
  const refused = tooLong || status === null
  const active = status === null ? undefined : STATUSES[status]
  const page = refused
    ? { items: [], nextCursor: null }
    : await listProducts(c.get('db'), {
        limit: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
        ...(active !== undefined ? { active } : {}),
        ...(q !== '' ? { search: q } : {}),
      })
  const params = new URLSearchParams()
  if (q !== '') params.set('q', q.slice(0, PRODUCT_SEARCH_MAX))
  if (status) params.set('status', status)
  const base = `${LIST}${params.size > 0 ? `?${params}` : ''}`
  const more = (next: string) =>
    `${base}${params.size > 0 ? '&' : '?'}cursor=${encodeURIComponent(next)}`
  return c.html(
    <ProductsPage
      ctx={dashContext(c)}
      products={page.items.map((p) => ({
        ...p,
        imageSrc: productImagePath(p.imageHash, p.imageType),
      }))}
      nextHref={page.nextCursor ? more(page.nextCursor) : null}
      firstHref={cursor ? base : null}
      notice={doneNotice(c)}
      search={{ value: q.slice(0, PRODUCT_SEARCH_MAX * 2), tooLong }}
      status={status}
    />,
    refused ? 400 : 200,
  )
})

type FormState = {
  form: ProductForm
  problems?: FormProblems
  product?: Product
  notice?: { text: string; kind?: 'ok' | 'error' }
  imageError?: string
}

function renderForm(c: DashC, status: 200 | 400 | 409 | 413, state: FormState) {
  const ctx = dashContext(c)
  const product = state.product
  const text = doneNotice(c)
  return c.html(
    <ProductFormPage
      ctx={ctx}
      form={state.form}
      errors={translateProblems(state.problems ?? {}, ctx.t)}
      product={
        product
          ? {
              id: product.id,
              name: product.name,
              active: product.active,
              sold: product.soldCount > 0,
              image: product.imageHash
                ? {
                    src: productImagePath(product.imageHash, product.imageType)!,
                    width: product.imageWidth ?? 0,
                    height: product.imageHeight ?? 0,
                  }
                : null,
            }
          : undefined
      }
      notice={state.notice ?? (text && status === 200 ? { text } : undefined)}
      imageError={state.imageError}
    />,
    status,
  )
}

/** The outcome of the service: on to the product's page, or the form again with its errors. */
function afterSave(
  c: DashC,
  result: ProductResult,
  form: ProductForm,
  done: 'created' | 'saved',
  existing?: Product,
) {
  if (result.ok) return c.redirect(`${LIST}/${result.product.id}?done=${done}`, 303)
  if (result.kind === 'not_found') return productNotFoundPage(c)
  const problems: FormProblems =
    result.kind === 'sku_taken'
      ? { sku: { key: 'prErrSkuTaken' } }
      : placeProductProblems(result.problems)
  return renderForm(c, 400, { form, problems, ...(existing ? { product: existing } : {}) })
}

productRoutes.get('/products/new', (c) => renderForm(c, 200, { form: newProductForm() }))

productRoutes.post('/products', async (c) => {
  const form = readProductForm(await readForm(c))
  const mapped = productFormToBody(form)
  if (Object.keys(mapped.problems).length > 0) {
    // A price or stock that is not a number never reaches the service; the rules still run on
    // the rest so every other mistake is shown at once.
    const parsed = parseProductBody(createProductBody, mapped.body)
    const others = parsed.ok ? {} : placeProductProblems(parsed.problems)
    return renderForm(c, 400, { form, problems: { ...others, ...mapped.problems } })
  }
  const result = await createProductFromBody(c.var, mapped.body)
  await auditProductResult(c, result, mapped.body)
  return afterSave(c, result, form, 'created')
})

const withProduct =
  (handler: (c: DashC, product: Product) => Response | Promise<Response>) => async (c: DashC) => {
    const product = await getProduct(c.get('db'), c.req.param('id') ?? '')
    return product ? handler(c, product) : productNotFoundPage(c)
  }

productRoutes.get(
  '/products/:id',
  withProduct((c, product) => renderForm(c, 200, { form: productToForm(product), product })),
)

productRoutes.post(
  '/products/:id',
  withProduct(async (c, product) => {
    const form = readProductForm(await readForm(c))
    const mapped = productFormToBody(form)
    if (Object.keys(mapped.problems).length > 0) {
      const parsed = parseProductBody(updateProductBody, mapped.body)
      const others = parsed.ok ? {} : placeProductProblems(parsed.problems)
      return renderForm(c, 400, { form, product, problems: { ...others, ...mapped.problems } })
    }
    // Only what the merchant changed is sent (and named in the audit log).
    const before = productFormToBody(productToForm(product)).body
    const body = Object.fromEntries(
      Object.entries(mapped.body).filter(
        ([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k]),
      ),
    )
    if (Object.keys(body).length === 0) return c.redirect(`${LIST}/${product.id}?done=saved`, 303)
    const result = await updateProductFromBody(c.var, product.id, body)
    await auditProductResult(c, result, body)
    return afterSave(c, result, form, 'saved', product)
  }),
)

/** Archiving and putting back on sale, through the same update as the API's `{"active": …}`. */
const setActive = (active: boolean) =>
  withProduct(async (c, product) => {
    const body = { active }
    const result = await updateProductFromBody(c.var, product.id, body)
    await auditProductResult(c, result, body)
    if (!result.ok) return productNotFoundPage(c)
    return c.redirect(`${LIST}/${product.id}?done=${active ? 'unarchived' : 'archived'}`, 303)
  })

productRoutes.post('/products/:id/archive', setActive(false))
productRoutes.post('/products/:id/unarchive', setActive(true))

productRoutes.post(
  '/products/:id/delete',
  withProduct(async (c, product) => {
    // One conditional DELETE: a sale recorded meanwhile keeps the product.
    if (await deleteProductIfUnsold(c.get('db'), product.id)) {
      await auditProductDeleted(c, product)
      return c.redirect(`${LIST}?done=deleted`, 303)
    }
    const fresh = (await getProduct(c.get('db'), product.id)) ?? product
    return renderForm(c, 409, {
      form: productToForm(fresh),
      product: fresh,
      notice: { text: c.get('dt')('prCannotDelete'), kind: 'error' },
    })
  }),
)

/** The product's page with the image's error beside its field. */
export const refuseImage = (
  c: DashC,
  product: Product,
  problem: LogoProblem | 'logo_missing',
  status: 400 | 413 = 400,
) =>
  renderForm(c, status, {
    form: productToForm(product),
    product,
    imageError: c.get('dt')(IMAGE_KEYS[problem]),
  })

productRoutes.post(
  '/products/:id/image',
  withProduct(async (c, product) => {
    // The body was held to IMAGE_FORM_BODY_LIMIT before it was read (requireSession).
    const file = (await readForm(c)).image
    if (!(file instanceof File)) return refuseImage(c, product, 'logo_missing')
    const bytes = new Uint8Array(await file.arrayBuffer())
    // What the bytes are decides, never the declared type or the file's name.
    const checked = readLogo(bytes)
    if (!checked.ok) return refuseImage(c, product, checked.problem)
    const sha256 = toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)))
    const { contentType, width, height } = checked.image
    const set = await setProductImage(
      c.get('db'),
      product.id,
      { sha256, contentType, bytes, width, height },
      c.get('clock')(),
    )
    if (!set) return productNotFoundPage(c)
    await auditProductImage(c, set.product, {
      change: 'set',
      type: contentType,
      width,
      height,
      bytes: bytes.length,
    })
    return c.redirect(`${LIST}/${product.id}?done=image#image`, 303)
  }),
)

productRoutes.post(
  '/products/:id/image/delete',
  withProduct(async (c, product) => {
    const set = await setProductImage(c.get('db'), product.id, null, c.get('clock')())
    if (!set) return productNotFoundPage(c)
    await auditProductImage(c, set.product, { change: 'removed' })
    return c.redirect(`${LIST}/${product.id}?done=image-removed#image`, 303)
  }),
)

/**
 * A product's image form over LOGO_FORM_BODY_LIMIT (a phone's photo, say), refused by the session
 * check before any route runs: the product's page again, the limit beside the field. The route
 * policy has not run yet, so it is applied here; nothing was read or stored.
 */
export async function productImageTooLargePage(c: DashC): Promise<Response> {
  const principal = c.get('principal')
  if (!principal || !allows(principal, 'links.write')) return notAllowedPage(c)
  const id = /^\/dashboard\/products\/([^/]+)\/image$/.exec(c.req.path)?.[1] ?? ''
  // The path is as sent: an id is base62, so nothing in it needs decoding.
  const product = await getProduct(c.get('db'), id)
  if (!product) return productNotFoundPage(c)
  return refuseImage(c, product, 'logo_too_large', 413)
}
