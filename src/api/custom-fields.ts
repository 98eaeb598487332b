/**
 * `custom_fields` as the link and checkout bodies take it: at most five questions for the
 * customer, each `{key, label, type, options, required}`. Each definition is read by its schema;
 * the rules across definitions (unique keys, options for a select only and distinct) are the
 * domain's (src/domain/custom-fields.ts), reported at the field they name
 * (`custom_fields[1].options`). Out: the link's column value, null for none.
 */
import * as z from 'zod'
import { cleanText } from '../domain/clean-text.js'
import {
  definitionProblems,
  FIELD_KEY,
  LABEL_MAX,
  MAX_CUSTOM_FIELDS,
  MAX_OPTIONS,
  OPTION_MAX,
} from '../domain/custom-fields.js'
import { CUSTOM_FIELD_TYPES, type CustomField } from '../domain/order.js'

const label = (max: number) =>
  z
    .string({ error: 'not_text' })
    .trim()
    .refine(...cleanText())
    .min(1)
    .max(max)

const customField = z.strictObject(
  {
    key: z
      .string({ error: 'not_text' })
      .refine((k) => FIELD_KEY.test(k), { params: { code: 'bad_field_key' } })
      .describe(
        'Names the answer: 1 to 40 lower-case letters, digits or `_`, unique on the link. The form field is `cf_<key>`, which also prefills it from the link’s query.',
      ),
    label: label(LABEL_MAX).describe(
      'The question as the customer reads it (1 to 80 characters), in your words.',
    ),
    type: z
      .enum(CUSTOM_FIELD_TYPES)
      .describe(
        '`text` (at most 200 characters), `number` (a decimal number), `select` (one of `options`), `wilaya` (one of the 58, stored by its code `01`–`58`) or `address` (at most 300 characters, several lines).',
      ),
    options: z
      .array(label(OPTION_MAX), { error: 'not_list' })
      .min(1)
      .max(MAX_OPTIONS)
      .nullable()
      .optional()
      .describe(
        `A select's choices: 1 to ${MAX_OPTIONS} distinct texts of at most ${OPTION_MAX} characters. Only for \`select\`.`,
      ),
    required: z
      .boolean({ error: 'not_boolean' })
      .optional()
      .describe('Whether the customer must answer; default false.'),
  },
  { error: 'not_object' },
)

/** `custom_fields`: `[]` or `null` asks nothing. */
export const customFieldsBody = z
  .array(customField, { error: 'not_list' })
  .max(MAX_CUSTOM_FIELDS)
  .transform((fields): CustomField[] =>
    fields.map((f) => ({
      key: f.key,
      label: f.label,
      type: f.type,
      options: f.type === 'select' || (f.options?.length ?? 0) > 0 ? (f.options ?? null) : null,
      required: f.required ?? false,
    })),
  )
  .superRefine((fields, ctx) => {
    for (const { index, field, problem } of definitionProblems(fields))
      ctx.addIssue({
        code: 'custom',
        path: [index, field],
        params: { code: problem.code, ...problem.params },
      })
  })
  .transform((fields) => (fields.length === 0 ? null : fields))
  .nullable()
  .describe(
    `Questions the customer answers on the checkout page (at most ${MAX_CUSTOM_FIELDS}); each payment keeps the answers as \`custom_fields\` (key → value).`,
  )
