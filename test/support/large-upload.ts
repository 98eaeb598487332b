/** Posting a large body over real HTTP, generated as the socket takes it, to see when a server answers. */
import { Agent, request } from 'node:http'

export interface Upload {
  status: number
  body: string
  headers: Record<string, string | string[] | undefined>
  /** Bytes written before the answer came. */
  sent: number
}

/**
 * Posts `total` bytes of `a`, 64 KiB at a time as the socket takes them, chunked unless `declare`
 * sends a Content-Length, on a keep-alive connection of its own (as browsers and curl ask; a
 * request saying `Connection: close` has Node close the socket as soon as it has answered, and
 * the unread bytes then reset the connection before the answer may have been read); stops
 * writing once an answer arrives.
 */
export function postLarge(
  url: string,
  total: number,
  options: { declare?: boolean; headers?: Record<string, string> } = {},
): Promise<Upload> {
  return new Promise((resolve, reject) => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61)
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      ...options.headers,
    }
    if (options.declare) headers['content-length'] = String(total)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const req = request(url, { method: 'POST', headers, agent })
    let sent = 0
    let answered = false
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    req.on('response', (res) => {
      answered = true
      const written = sent
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => {
        body += d
      })
      res.on('end', () => {
        req.destroy()
        agent.destroy()
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers, sent: written })
      })
    })
    req.on('error', (error) => {
      const how = options.declare ? 'declared' : 'chunked'
      agent.destroy()
      if (!answered) reject(new Error(`${url} (${how}), ${sent} bytes sent: ${error}`))
    })
    pump()
  })
}
