/**
 * The Worker's stand-in for zod's JSON Schema generation (wrangler.toml's [alias] points zod's own
 * imports of `to-json-schema.js` and `json-schema-processors.js` here). The Worker never makes a
 * JSON Schema: the OpenAPI document is generated before the upload and read from the static assets
 * (src/worker-assets.ts). zod's schemas still name a generator for each type, which kept all of
 * it (some 25 KB) in the upload. What zod's schemas do use of that module at run time,
 * `aggregateChecks` (behind getters such as `.minLength`), is zod's own, re-exported; the rest
 * throws if anything ever asks for a JSON Schema in the Worker.
 * test/worker/bundle.test.ts checks the generator is not in the upload.
 */
export { aggregateChecks } from '../node_modules/zod/v4/core/json-schema-processors.js'

function unavailable() {
  throw new Error(
    'JSON Schema generation is not part of the Worker (see src/worker-zod-json-schema.js)',
  )
}

/** zod makes these methods when a schema's `~standard` is read: they throw only if called. */
const method = () => unavailable

export {
  method as createToJSONSchemaMethod,
  method as createStandardJSONSchemaMethod,
  unavailable as toJSONSchema,
  unavailable as anyProcessor,
  unavailable as arrayProcessor,
  unavailable as bigintProcessor,
  unavailable as booleanProcessor,
  unavailable as catchProcessor,
  unavailable as customProcessor,
  unavailable as dateProcessor,
  unavailable as defaultProcessor,
  unavailable as enumProcessor,
  unavailable as fileProcessor,
  unavailable as functionProcessor,
  unavailable as intersectionProcessor,
  unavailable as lazyProcessor,
  unavailable as literalProcessor,
  unavailable as mapProcessor,
  unavailable as nanProcessor,
  unavailable as neverProcessor,
  unavailable as nonoptionalProcessor,
  unavailable as nullProcessor,
  unavailable as nullableProcessor,
  unavailable as numberProcessor,
  unavailable as objectProcessor,
  unavailable as optionalProcessor,
  unavailable as pipeProcessor,
  unavailable as prefaultProcessor,
  unavailable as promiseProcessor,
  unavailable as readonlyProcessor,
  unavailable as recordProcessor,
  unavailable as setProcessor,
  unavailable as stringProcessor,
  unavailable as successProcessor,
  unavailable as symbolProcessor,
  unavailable as templateLiteralProcessor,
  unavailable as transformProcessor,
  unavailable as tupleProcessor,
  unavailable as undefinedProcessor,
  unavailable as unionProcessor,
  unavailable as unknownProcessor,
  unavailable as voidProcessor,
}
