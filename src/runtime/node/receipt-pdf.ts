/**
 * The receipt PDF on Node: the fonts are read once from @fontsource/noto-sans-arabic (its Arabic,
 * Latin and Latin Extended files, regular and bold), and pdfkit is loaded on the first download,
 * so the server's start does not pay for it.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { PdfFonts, parseFonts, ReceiptPdfInput } from '../../pdf/receipt-pdf.js'
import { woffToSfnt } from './woff-to-sfnt.js'

const nodeRequire = createRequire(import.meta.url)

/** The file of one subset and weight of Noto Sans Arabic. */
async function fontFile(subset: string, weight: 400 | 700): Promise<Uint8Array> {
  const name = `noto-sans-arabic-${subset}-${weight}-normal.woff`
  return woffToSfnt(
    await readFile(nodeRequire.resolve(`@fontsource/noto-sans-arabic/files/${name}`)),
  )
}

async function loadFonts(parse: typeof parseFonts): Promise<PdfFonts> {
  const weight = async (w: 400 | 700) => {
    const [arabic, latin, latinExt] = await Promise.all(
      ['arabic', 'latin', 'latin-ext'].map((subset) => fontFile(subset, w)),
    )
    return { arabic: arabic!, latin: latin!, latinExt: latinExt! }
  }
  const [regular, bold] = await Promise.all([weight(400), weight(700)])
  return parse({ regular, bold })
}

/** Makes receipt PDFs; the module and fonts are loaded on the first call and kept. */
export function nodeReceiptPdf(): (input: ReceiptPdfInput) => Promise<Uint8Array> {
  let ready: Promise<[typeof import('../../pdf/receipt-pdf.js'), PdfFonts]> | undefined
  return async (input) => {
    ready ??= import('../../pdf/receipt-pdf.js').then(
      async (module) => [module, await loadFonts(module.parseFonts)] as const,
    ) as never
    ready.catch(() => {
      ready = undefined
    })
    const [module, fonts] = await ready
    return module.renderReceiptPdf(input, fonts)
  }
}
