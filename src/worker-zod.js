/**
 * The Worker's `zod` (wrangler.toml's [alias] points the app's `import * as z from 'zod'` here):
 * zod's own schemas, parsers and messages, built from `zod/mini` with the chained methods of
 * zod's classic API that the app writes (`.optional()`, `.min(1)`, `.describe(…)` and the like)
 * added to them. Both halves are zod's: every schema is made and parsed by the same zod core,
 * with the same checks and the same issues, as on Node; each method below does what the classic
 * method of the same name does (node_modules/zod/v4/classic/schemas.js). Classic `zod` names every
 * schema type, string format and method it has, so all of them stayed in the upload; this keeps
 * only what the app uses (docs/decisions/performance.md, "The Worker upload").
 *
 * A method the app starts using that is not here fails every Worker test at once (the app's
 * schemas are built as the Worker starts): add it here, as classic zod defines it.
 * test/worker/bundle.test.ts checks classic zod is not in the upload.
 */
import * as z from 'zod/mini'
import {
  _isoDate,
  _isoDateTime,
  $constructor,
  $ZodEncodeError,
  $ZodPreprocess,
  $ZodTransform,
  globalConfig,
} from 'zod/v4/core'
import en from 'zod/v4/locales/en.js'

// What classic zod sets up on its first schema: English messages, and the parsers' memoizer.
z.config(en())
if (!globalConfig.memoizer) z.config({ memoizer: z.memoizer() })

/** A copy of a schema's definition keeping its getters (a default's value is made per parse). */
function mergeDefs(...defs) {
  const descriptors = {}
  for (const def of defs) Object.assign(descriptors, Object.getOwnPropertyDescriptors(def))
  return Object.defineProperties({}, descriptors)
}

/** Classic zod's `check`: the schema with more checks (its definition's getters kept). */
function check(schema, ...checks) {
  const def = schema._zod.def
  return schema.clone(mergeDefs(def, { checks: [...(def.checks ?? []), ...checks] }), {
    parent: true,
  })
}

/**
 * Classic zod's transform: its function may also report issues with `ctx.addIssue` (zod 3's way,
 * which the app's transforms use), and may answer with a promise.
 */
const ZodTransform = $constructor('ZodTransform', (inst, def) => {
  $ZodTransform.init(inst, def)
  z.ZodMiniType.init(inst, def)
  inst._zod.parse = (payload, ctx) => {
    if (ctx.direction === 'backward') throw new $ZodEncodeError(inst.constructor.name)
    payload.addIssue = (issue) => {
      if (typeof issue === 'string') {
        payload.issues.push({ message: issue, code: 'custom', input: payload.value, inst: def })
      } else {
        if (issue.fatal) issue.continue = false
        issue.code ??= 'custom'
        if (!('input' in issue)) issue.input = payload.value
        issue.inst ??= inst
        payload.issues.push({ ...issue })
      }
    }
    const output = def.transform(payload.value, payload)
    if (output instanceof Promise) {
      return output.then((value) => {
        payload.value = value
        return payload
      })
    }
    payload.value = output
    return payload
  }
})

export function transform(fn) {
  return new ZodTransform({ type: 'transform', transform: fn })
}

/**
 * zod's `catch`, made here: zod's own reaches its helper through its `util` namespace, which kept
 * all of that namespace (some 13 KB) in the upload. The helper is zod's (core/util.js).
 */
function _catch(innerType, value) {
  let catchValue = value
  if (typeof value !== 'function') {
    catchValue = () => value
    catchValue['~constantCatch'] = true
  }
  return new z.ZodMiniCatch({ type: 'catch', innerType, catchValue })
}

export { _catch as catch }

/** The ISO formats the app reads, as zod's `iso` makes them (without its namespace's other formats). */
export const iso = {
  date: (params) => _isoDate(z.ZodMiniISODate, params),
  datetime: (params) => _isoDateTime(z.ZodMiniISODateTime, params),
}

/** Classic zod's `preprocess`: a pipe from a transform, marked as zod marks it. */
const ZodPreprocess = $constructor('ZodPreprocess', (inst, def) => {
  z.ZodMiniPipe.init(inst, def)
  $ZodPreprocess.init(inst, def)
})

export function preprocess(fn, schema) {
  return new ZodPreprocess({ type: 'pipe', in: transform(fn), out: schema })
}

const lengthTypes = new Set(['string', 'array', 'file', 'set', 'map'])

/** Classic zod's chained methods, each as classic zod defines it. */
const methods = {
  optional() {
    return z.optional(this)
  },
  nullable() {
    return z.nullable(this)
  },
  nullish() {
    return z.optional(z.nullable(this))
  },
  array() {
    return z.array(this)
  },
  or(other) {
    return z.union([this, other])
  },
  transform(fn) {
    return z.pipe(this, transform(fn))
  },
  default(value) {
    return z._default(this, value)
  },
  catch(value) {
    return _catch(this, value)
  },
  pipe(target) {
    return z.pipe(this, target)
  },
  refine(fn, params) {
    return check(this, z.refine(fn, params))
  },
  superRefine(refinement, params) {
    return check(this, z.superRefine(refinement, params))
  },
  describe(description) {
    const copy = this.clone()
    z.globalRegistry.add(copy, { description })
    return copy
  },
  meta(...args) {
    if (args.length === 0) return z.globalRegistry.get(this)
    const copy = this.clone()
    z.globalRegistry.add(copy, args[0])
    return copy
  },
  isOptional() {
    return this.safeParse(undefined).success
  },
  // Strings, arrays: lengths; numbers: values.
  min(value, params) {
    const type = this._zod.def.type
    return check(this, lengthTypes.has(type) ? z.minLength(value, params) : z.gte(value, params))
  },
  max(value, params) {
    const type = this._zod.def.type
    return check(this, lengthTypes.has(type) ? z.maxLength(value, params) : z.lte(value, params))
  },
  length(value, params) {
    return check(this, z.length(value, params))
  },
  nonempty(params) {
    return check(this, z.minLength(1, params))
  },
  // Strings.
  regex(pattern, params) {
    return check(this, z.regex(pattern, params))
  },
  includes(text, params) {
    return check(this, z.includes(text, params))
  },
  startsWith(text, params) {
    return check(this, z.startsWith(text, params))
  },
  endsWith(text, params) {
    return check(this, z.endsWith(text, params))
  },
  trim() {
    return check(this, z.trim())
  },
  toLowerCase() {
    return check(this, z.toLowerCase())
  },
  toUpperCase() {
    return check(this, z.toUpperCase())
  },
  url(params) {
    return check(this, z.url(params))
  },
  email(params) {
    return check(this, z.email(params))
  },
  // Numbers.
  int(params) {
    return check(this, z.int(params))
  },
  positive(params) {
    return check(this, z.gt(0, params))
  },
  nonnegative(params) {
    return check(this, z.gte(0, params))
  },
  gt(value, params) {
    return check(this, z.gt(value, params))
  },
  gte(value, params) {
    return check(this, z.gte(value, params))
  },
  lt(value, params) {
    return check(this, z.lt(value, params))
  },
  lte(value, params) {
    return check(this, z.lte(value, params))
  },
  // Objects.
  extend(shape) {
    return z.extend(this, shape)
  },
  partial(mask) {
    return z.partial(this, mask)
  },
  pick(mask) {
    return z.pick(this, mask)
  },
  omit(mask) {
    return z.omit(this, mask)
  },
}

const description = {
  get() {
    return z.globalRegistry.get(this)?.description
  },
  configurable: true,
}

// Every schema type the app makes (zod's constructors: a schema's methods come from its own).
for (const type of [
  z.ZodMiniString,
  z.ZodMiniStringFormat,
  z.ZodMiniURL,
  z.ZodMiniEmail,
  z.ZodMiniISODate,
  z.ZodMiniISODateTime,
  z.ZodMiniNumber,
  z.ZodMiniNumberFormat,
  z.ZodMiniBoolean,
  z.ZodMiniUnknown,
  z.ZodMiniLiteral,
  z.ZodMiniEnum,
  z.ZodMiniObject,
  z.ZodMiniArray,
  z.ZodMiniRecord,
  z.ZodMiniUnion,
  z.ZodMiniOptional,
  z.ZodMiniNullable,
  z.ZodMiniDefault,
  z.ZodMiniCatch,
  z.ZodMiniPipe,
  ZodPreprocess,
  z.ZodMiniDiscriminatedUnion,
  ZodTransform,
  z.ZodMiniCustom,
]) {
  for (const [name, method] of Object.entries(methods))
    Object.defineProperty(type.prototype, name, {
      value: method,
      writable: true,
      configurable: true,
    })
  Object.defineProperty(type.prototype, 'description', description)
}

export {
  array,
  boolean,
  custom,
  discriminatedUnion,
  email,
  enum,
  globalRegistry,
  literal,
  looseObject,
  NEVER,
  nullable,
  number,
  object,
  optional,
  pipe,
  record,
  registry,
  strictObject,
  string,
  union,
  unknown,
  url,
} from 'zod/mini'
