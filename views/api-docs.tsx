/**
 * `/api/docs`: the OpenAPI document rendered on the server as one plain page — no script, no
 * third-party asset — so it works under the strict CSP and offline.
 */
import { raw } from 'hono/html'
import type { Child } from 'hono/jsx'
import {
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiDocument,
  type OpenApiOperation,
} from '../src/api/openapi-types.js'
import {
  curlExample,
  type FieldRow,
  fieldRows,
  refName,
  resolveResponse,
  rulesText,
  typeText,
} from '../src/api/schema-text.js'
import { FaviconLink } from './favicon.js'

const CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:#1b1f24;background:#fff}
.wrap{max-inline-size:60rem;margin-inline:auto;padding:1.5rem 1rem 3rem}
a{color:#0b5cad}
h1{font-size:1.7rem;margin:0 0 .5rem}
h2{font-size:1.35rem;margin:2.5rem 0 .75rem;padding-block-end:.3rem;border-block-end:2px solid #e5e8eb}
h3{font-size:1.1rem;margin:2rem 0 .5rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}
h4{font-size:1rem;margin:1.25rem 0 .35rem;color:#57606a}
code,pre{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:#f3f5f7;border-radius:4px;padding:.05rem .3rem}
h3 code{overflow-wrap:anywhere}
.scroll{overflow-x:auto}
pre{background:#0d1117;color:#e6edf3;border-radius:8px;padding:.85rem 1rem;overflow-x:auto}
pre code{background:none;padding:0}
table{inline-size:100%;border-collapse:collapse;font-size:.92rem}
th,td{text-align:start;padding:.4rem .5rem;border-block-end:1px solid #e5e8eb;vertical-align:top}
th{color:#57606a;font-weight:600}
.m{font:700 12px/1 ui-monospace,monospace;padding:.3rem .45rem;border-radius:4px;color:#fff}
.get{background:#1a7f37}.post{background:#0b5cad}.patch{background:#9a6700}.delete{background:#b42318}
.req{color:#b42318;font-size:.8rem}
.muted{color:#57606a}
nav ul{margin:.25rem 0;padding-inline-start:1.25rem}
article{border-block-start:1px solid #e5e8eb}
`

/** Minimal inline markup of the document's texts: `code` and **bold**, nothing else. */
function Text(props: { text: string }) {
  const parts = props.text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).filter((p) => p !== '')
  return (
    <>
      {parts.map((p) =>
        p.startsWith('`') ? (
          <code>{p.slice(1, -1)}</code>
        ) : p.startsWith('**') ? (
          <strong>{p.slice(2, -2)}</strong>
        ) : (
          p
        ),
      )}
    </>
  )
}

function TypeLink(props: { type: string }) {
  const name = props.type.replace(/^list of /, '')
  return /^[A-Z]\w+$/.test(name) ? (
    <a href={`#schema-${name}`}>
      <code>{props.type}</code>
    </a>
  ) : (
    <code>{props.type}</code>
  )
}

/** A table of fields; `required` marks are for what a client sends (answers carry every field). */
/*
 * Tables scroll in their own box on a phone (`.scroll`), which takes the focus so a keyboard can
 * scroll it too.
 */
function Fields(props: { rows: FieldRow[]; sent: boolean; paramsIn?: string[] }) {
  const rules = props.rows.some((r) => r.rules !== '')
  return (
    <div class="scroll" tabindex={0}>
      <table>
        <thead>
          <tr>
            <th>{props.paramsIn ? 'Parameter' : 'Field'}</th>
            <th>Type</th>
            {rules ? <th>Rules</th> : null}
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r, i) => (
            <tr>
              <td>
                <code>{r.name}</code>
                {props.paramsIn ? <span class="muted"> in {props.paramsIn[i]}</span> : null}
                {props.sent && r.required ? <span class="req"> required</span> : null}
              </td>
              <td>
                <TypeLink type={r.type} />
              </td>
              {rules ? <td>{r.rules}</td> : null}
              <td>
                <Text text={r.description} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function Operation(props: {
  doc: OpenApiDocument
  path: string
  method: HttpMethod
  op: OpenApiOperation
}) {
  const { doc, path, method, op } = props
  const params = op.parameters ?? []
  const body = op.requestBody?.content['application/json']
  return (
    <article id={op.operationId}>
      <h3>
        <span class={`m ${method}`}>{method.toUpperCase()}</span>
        <code>{path}</code>
        <span>{op.summary}</span>
      </h3>
      {op.description ? (
        <p>
          <Text text={op.description} />
        </p>
      ) : null}
      {params.length > 0 ? (
        <>
          <h4>Parameters</h4>
          <Fields
            rows={params.map((p) => ({
              name: p.name,
              type: typeText(p.schema),
              required: p.required,
              rules: rulesText(p.schema),
              description: p.description ?? '',
            }))}
            paramsIn={params.map((p) => p.in)}
            sent
          />
        </>
      ) : null}
      {body ? (
        <>
          <h4>
            Body (JSON, <TypeLink type={refName(body.schema) ?? 'object'} />)
          </h4>
          <Fields rows={fieldRows(doc, body.schema)} sent />
        </>
      ) : null}
      <h4>Responses</h4>
      <div class="scroll" tabindex={0}>
        <table>
          <tbody>
            {Object.entries(op.responses).map(([status, r]) => {
              const response = resolveResponse(doc, r)
              const schema = response.content?.['application/json']?.schema
              return (
                <tr>
                  <td>
                    <code>{status}</code>
                  </td>
                  <td>
                    <Text text={response.description} />
                  </td>
                  <td>{schema ? <TypeLink type={typeText(schema)} /> : null}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <h4>Example</h4>
      {/* Focusable so a keyboard can scroll a long command sideways. */}
      <pre tabindex={0}>
        <code>{curlExample(doc, path, method, op)}</code>
      </pre>
    </article>
  )
}

/** The docs page for an OpenAPI document. */
export function ApiDocsPage(props: { doc: OpenApiDocument; nonce: string }): Child {
  const { doc } = props
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const op = item[method]
      return op ? [{ path, method, op }] : []
    }),
  )
  // Request bodies mark their required fields; answers always carry every field.
  const sentSchemas = new Set(
    operations.map(({ op }) => refName(op.requestBody?.content['application/json']?.schema)),
  )
  return (
    <>
      {raw('<!doctype html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <title>{doc.info.title}</title>
          <FaviconLink />
          <style nonce={props.nonce}>{raw(CSS)}</style>
        </head>
        <body>
          <main class="wrap">
            <h1>{doc.info.title}</h1>
            <p class="muted">
              Version {doc.info.version} · OpenAPI {doc.openapi} document:{' '}
              <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> · Server{' '}
              <code>{doc.servers[0]?.url}</code>
            </p>
            {doc.info.description.split('\n\n').map((para) => (
              <p>
                <Text text={para} />
              </p>
            ))}
            <nav aria-label="Operations">
              {doc.tags.map((tag) => (
                <>
                  <strong>{tag.name}</strong>
                  <ul>
                    {operations
                      .filter(({ op }) => op.tags.includes(tag.name))
                      .map(({ method, path, op }) => (
                        <li>
                          <a href={`#${op.operationId}`}>
                            {method.toUpperCase()} {path}
                          </a>{' '}
                          — {op.summary}
                        </li>
                      ))}
                  </ul>
                </>
              ))}
            </nav>
            {doc.tags.map((tag) => (
              <section>
                <h2>{tag.name}</h2>
                <p>{tag.description}</p>
                {operations
                  .filter(({ op }) => op.tags.includes(tag.name))
                  .map((o) => (
                    <Operation doc={doc} path={o.path} method={o.method} op={o.op} />
                  ))}
              </section>
            ))}
            <section>
              <h2>Objects</h2>
              {Object.entries(doc.components.schemas).map(([name, schema]) => (
                <article id={`schema-${name}`}>
                  <h3>{name}</h3>
                  {typeof schema.description === 'string' ? (
                    <p>
                      <Text text={schema.description} />
                    </p>
                  ) : null}
                  <Fields rows={fieldRows(doc, schema)} sent={sentSchemas.has(name)} />
                </article>
              ))}
            </section>
          </main>
        </body>
      </html>
    </>
  )
}
