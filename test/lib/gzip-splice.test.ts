import { constants, deflateRawSync, gunzipSync, crc32 as nodeCrc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crc32, gzipSplice } from '../../src/lib/gzip-splice.js'

const bytes = (text: string) => new TextEncoder().encode(text)
const deflateRaw = (input: Uint8Array, final: boolean) =>
  deflateRawSync(input, final ? {} : { finishFlush: constants.Z_SYNC_FLUSH })

describe('a gzip stream with bytes spliced in per answer', () => {
  it('decompresses (CRC and size checked by zlib) to the text with the middle in place', () => {
    const cases: Array<[string, string]> = [
      ['', ''],
      ['<html>'.repeat(400), '</div>'.repeat(300)],
      ['before é ٣', 'x'],
    ]
    for (const [before, after] of cases) {
      const build = gzipSplice(bytes(before), bytes(after), deflateRaw)
      for (const middle of ['', '{&quot;a&quot;:1}', 'z'.repeat(5000)]) {
        expect(gunzipSync(build(bytes(middle))).toString()).toBe(before + middle + after)
      }
    }
  })

  it('computes CRC-32 as zlib does, continued from an earlier one', () => {
    expect(crc32(bytes('hello world'))).toBe(nodeCrc32('hello world'))
    expect(crc32(bytes(' world'), crc32(bytes('hello')))).toBe(nodeCrc32('hello world'))
  })
})
