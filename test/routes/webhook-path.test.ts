/** Which requests the webhook endpoint takes before routing (`isWebhookRequest`). */
import { describe, expect, it } from 'vitest'
import { isWebhookRequest } from '../../src/routes/webhooks.js'

const post = (url: string) => new Request(url, { method: 'POST', body: '{}' })

describe('isWebhookRequest', () => {
  it('takes a POST to exactly /webhooks/gateway, on any host', () => {
    expect(isWebhookRequest(post('http://127.0.0.1:8787/webhooks/gateway'))).toBe(true)
    expect(isWebhookRequest(post('https://pay.example.dz/webhooks/gateway'))).toBe(true)
  })

  it('leaves to the router every other method, path or spelling', () => {
    expect(isWebhookRequest(new Request('http://h/webhooks/gateway'))).toBe(false)
    for (const path of [
      '/webhooks/gateway?x=1',
      '/webhooks/gateway/',
      '/a/webhooks/gateway',
      '/webhooks/gatewayx',
      '/webhooks/%67ateway',
      '/',
    ])
      expect(isWebhookRequest(post(`http://h${path}`)), path).toBe(false)
  })
})
