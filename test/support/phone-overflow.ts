/** What sticks out sideways on a page in Chromium: the phone-layout walks share this check. */
import type { Page } from 'playwright-core'

/** What in the page sticks out sideways: the page's own width, then elements past either edge. */
export function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth
    const out: string[] = []
    if (document.documentElement.scrollWidth > width) {
      out.push(`page is ${document.documentElement.scrollWidth}px wide in ${width}px`)
    }
    // Visually hidden parts (clipped on purpose, for screen readers) are not cut off.
    const clipped = (el: Element | null): boolean => {
      for (; el; el = el.parentElement) {
        const style = getComputedStyle(el)
        if (style.clipPath !== 'none' || style.clip !== 'auto') return true
      }
      return false
    }
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (box.left >= -0.5 && box.right <= width + 0.5) continue
      if (clipped(el)) continue
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/ /g, '.')}` : ''}`
      out.push(`${name} spans ${Math.round(box.left)}..${Math.round(box.right)}`)
      if (out.length > 5) break
    }
    return out
  })
}
