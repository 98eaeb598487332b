/**
 * Cursor paging: a list call answers a `ListIterable`, which walks every item of every page with
 * `for await`, or answers one page with `page()`. The API's lists are newest first; each page's
 * `next_cursor` is passed back as `cursor` while `has_more` is true.
 */
import type { Page, PageParams } from './types.js'

export class ListIterable<T> implements AsyncIterable<T> {
  readonly #fetchPage: (params: PageParams) => Promise<Page<T>>
  readonly #params: PageParams

  constructor(fetchPage: (params: PageParams) => Promise<Page<T>>, params: PageParams) {
    this.#fetchPage = fetchPage
    this.#params = params
  }

  /** One page: the first (or the one at `cursor`, if the list was given one). */
  page(): Promise<Page<T>> {
    return this.#fetchPage(this.#params)
  }

  /** Every page in turn, starting at the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let params = this.#params
    for (;;) {
      const page = await this.#fetchPage(params)
      yield page
      // A page that says more but gives no cursor would loop for ever: stop there.
      if (!page.has_more || !page.next_cursor) return
      params = { ...params, cursor: page.next_cursor }
    }
  }

  /** Every item of every page, fetching the next page when the previous one is used up. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data
  }

  /** Every item in an array (at most `max`, default 10,000: a list can be long). */
  async toArray(max = 10_000): Promise<T[]> {
    const out: T[] = []
    for await (const item of this) {
      if (out.length >= max) break
      out.push(item)
    }
    return out
  }
}
