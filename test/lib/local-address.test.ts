import { describe, expect, it } from 'vitest'
import { isLocalAddress } from '../../src/lib/local-address.js'

describe('isLocalAddress', () => {
  it.each([
    'http://localhost:8787',
    'http://LOCALHOST/',
    'http://app.localhost:3000',
    'http://127.0.0.1:3000',
    'http://127.1',
    'http://127.255.255.254',
    'http://0x7f.1',
    'http://[::1]:8080',
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:192.168.1.2]',
    'http://10.0.0.5',
    'http://10.255.255.255',
    'http://192.168.1.20:8080',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://169.254.1.1',
    'http://0.0.0.0:3000',
    'http://[fd12:3456::1]',
    'http://[fe80::1]',
    'http://paylinks.local',
    'http://paylinks.local.',
  ])('says %s is local', (url) => {
    expect(isLocalAddress(url)).toBe(true)
  })

  it.each([
    'https://pay.example.dz',
    'http://paylinks.test',
    'https://172.15.0.1',
    'https://172.32.0.1',
    'https://192.169.0.1',
    'https://11.0.0.1',
    'https://128.0.0.1',
    'https://[2001:db8::1]',
    'https://[fc::1]',
    'https://local.example.dz',
    'https://localhost.example.dz',
    'not a url',
  ])('says %s is not local', (url) => {
    expect(isLocalAddress(url)).toBe(false)
  })
})
