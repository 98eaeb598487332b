import { describe, expect, it } from 'vitest'
import { shopUrl } from '../../src/domain/shop-urls.js'

const ID = 'chk_AbC123xyz'

describe('shopUrl: the shop’s URL naming the checkout', () => {
  it.each([
    ['https://shop.example/merci', `https://shop.example/merci?checkout_id=${ID}`],
    ['https://shop.example/merci?', `https://shop.example/merci?checkout_id=${ID}`],
    ['https://shop.example/m?order=1&', `https://shop.example/m?order=1&checkout_id=${ID}`],
    // The shop's own query is kept as written, not re-encoded.
    [
      'https://shop.example/m?q=a%20b+c&x=%C3%A9',
      `https://shop.example/m?q=a%20b+c&x=%C3%A9&checkout_id=${ID}`,
    ],
    // The fragment stays last.
    ['https://shop.example/m#done', `https://shop.example/m?checkout_id=${ID}#done`],
    ['http://shop.example/m?a=1#x?y', `http://shop.example/m?a=1&checkout_id=${ID}#x?y`],
  ])('%s', (url, expected) => {
    expect(shopUrl(url, ID)).toBe(expected)
  })

  it('encodes the id', () => {
    expect(shopUrl('https://s.example/', 'chk_a&b=c')).toBe(
      'https://s.example/?checkout_id=chk_a%26b%3Dc',
    )
  })

  it.each([null, '', 'javascript:alert(1)', 'data:text/html,x', '/relative', 'ftp://s.example/'])(
    'goes nowhere for %s',
    (url) => {
      expect(shopUrl(url, ID)).toBeNull()
    },
  )
})
