/** What sticks out sideways on a page in Chromium: the phone-layout walks share this check. */
import type { Page } from 'playwright-core'

/**
 * What in the page sticks out sideways: the page's own width, then elements past either edge.
 * With `scrollBoxes`, an element inside a box that scrolls or clips sideways is held by it (a
 * code sample or a wide table scrolling in its own box is meant to): `npm run walk` reads every
 * page so.
 */
export function overflow(page: Page, options: { scrollBoxes?: boolean } = {}) {
  return page.evaluate((scrollBoxes) => {
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
    const held = (el: Element): boolean => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') return true
      return false
    }
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if (box.left >= -0.5 && box.right <= width + 0.5) continue
      if (clipped(el) || (scrollBoxes && held(el))) continue
      const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className ? `.${String(el.className).replace(/ /g, '.')}` : ''}`
      out.push(`${name} spans ${Math.round(box.left)}..${Math.round(box.right)}`)
      if (out.length > 5) break
    }
    return out
  }, options.scrollBoxes ?? false)
}
