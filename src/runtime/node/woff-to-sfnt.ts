/**
 * A WOFF (1.0) font unpacked into the TrueType/OpenType file it wraps. fontkit reads WOFF, but
 * inflates a table again each time it reads it (seconds per receipt for the Arabic font's glyphs);
 * unpacked once at load, the font is read straight from memory.
 */
import { inflateSync } from 'node:zlib'

/** The sfnt (TrueType or OpenType) bytes of a WOFF file; other files are returned as they are. */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength)
  if (woff.byteLength < 44 || view.getUint32(0) !== 0x774f4646) return woff // 'wOFF'
  const numTables = view.getUint16(12)
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20
    const offset = view.getUint32(at + 4)
    const compLength = view.getUint32(at + 8)
    const origLength = view.getUint32(at + 12)
    const stored = woff.subarray(offset, offset + compLength)
    const data = compLength < origLength ? new Uint8Array(inflateSync(stored)) : stored
    if (data.byteLength !== origLength) throw new Error('A WOFF table does not inflate to its size')
    return { tag: view.getUint32(at), checksum: view.getUint32(at + 16), data }
  })
  const headerLength = 12 + 16 * numTables
  const padded = (n: number) => (n + 3) & ~3
  const total = tables.reduce((n, t) => n + padded(t.data.byteLength), headerLength)
  const out = new Uint8Array(total)
  const outView = new DataView(out.buffer)
  const power = 2 ** Math.floor(Math.log2(numTables))
  outView.setUint32(0, view.getUint32(4)) // flavor: 0x00010000 (TrueType) or 'OTTO'
  outView.setUint16(4, numTables)
  outView.setUint16(6, power * 16)
  outView.setUint16(8, Math.log2(power))
  outView.setUint16(10, numTables * 16 - power * 16)
  let offset = headerLength
  tables.forEach((table, i) => {
    const record = 12 + i * 16
    outView.setUint32(record, table.tag)
    outView.setUint32(record + 4, table.checksum)
    outView.setUint32(record + 8, offset)
    outView.setUint32(record + 12, table.data.byteLength)
    out.set(table.data, offset)
    offset += padded(table.data.byteLength)
  })
  return out
}
