/**
 * A `getWithBody` for the gateway client on Node: sends a GET with a JSON body through node:http
 * or node:https, which WHATWG fetch refuses to do. The product listing
 * (`services/get_products/`) reads its fields from such a body.
 *
 *   createGatewayClient({ secretKey, getWithBody: nodeGetWithBody })
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { GetWithBody } from '../../client/index.js'

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/** Sends `GET url` with the given headers and body; resolves to a WHATWG Response. */
export const nodeGetWithBody: GetWithBody = (url, init) =>
  new Promise<Response>((resolve, reject) => {
    const target = new URL(url)
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    const body = Buffer.from(init.body, 'utf8')
    const req = send(
      target,
      {
        method: 'GET',
        headers: { ...init.headers, 'Content-Length': String(body.length) },
        signal: init.signal,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('error', reject)
        res.on('end', () => {
          const headers = new Headers()
          for (const [name, value] of Object.entries(res.headers)) {
            if (Array.isArray(value)) for (const v of value) headers.append(name, v)
            else if (value !== undefined) headers.set(name, value)
          }
          const status = res.statusCode ?? 502
          const payload = NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks)
          resolve(new Response(payload, { status, statusText: res.statusMessage ?? '', headers }))
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
