/**
 * ALTCHA on the checkout form: a self-hosted proof of work, no third party. A script in the page's
 * head fetches a signed challenge from the checkout's `/challenge` address (so the page itself
 * stays the same for every visitor and can be served from cache), finds the number whose SHA-256
 * matches (./altcha-solver.ts), and fills the form field; the server checks the signature, the
 * expiry and that the solution was not used before (spent solutions are kept until they expire).
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { raw } from 'hono/html'
import type { Captcha } from '../app-deps.js'
import { spendToken } from '../data/spent-tokens.js'
import { fromBase64, fromUtf8 } from '../lib/bytes.js'
import { altchaSolverScript } from './altcha-solver.js'

const MAX_NUMBER = 20_000
const LIFETIME_MS = 30 * 60_000

/** The checkout captcha, keyed with the app's session secret. */
export function altchaCaptcha(): Captcha {
  return {
    async challenge(c) {
      const challenge = await createChallenge({
        hmacKey: c.get('secrets').sessionSecret,
        maxnumber: MAX_NUMBER,
        expires: new Date(c.get('clock')() + LIFETIME_MS),
      })
      return JSON.stringify(challenge)
    },
    widget(ctx, challengeUrl) {
      // In the head: the challenge's request leaves while the rest of the page is still arriving.
      const head = (
        <script nonce={ctx.nonce || undefined}>{raw(altchaSolverScript(challengeUrl))}</script>
      )
      const field = (
        <div
          id="altcha"
          class="captcha muted"
          data-url={challengeUrl}
          data-done={ctx.t('captchaDone')}
          data-fail={ctx.t('captchaFailed')}
        >
          <input type="hidden" name="altcha" value="" />
          <p class="st" role="status">
            {ctx.t('captchaChecking')}
          </p>
          <noscript>
            <p>{ctx.t('captchaNoScript')}</p>
          </noscript>
        </div>
      )
      return { head, field }
    },
    async verify(c, form) {
      const payload = form.altcha
      if (typeof payload !== 'string' || payload.length === 0 || payload.length > 2000) return false
      const decoded = fromBase64(payload)
      const solution = decoded ? parseJson(fromUtf8(decoded)) : null
      if (!solution || typeof solution.signature !== 'string') return false
      // The expiry is read here, on the app's clock (the library would read Date.now()), and is
      // required: every challenge this app signs carries one, inside the signed salt.
      const expiresAt = expiryOf(solution.salt)
      if (expiresAt === null || expiresAt < c.get('clock')()) return false
      if (!(await verifySolution(payload, c.get('secrets').sessionSecret, false))) return false
      // A solution is good for one submission: its signature stays spent until it expires.
      return spendToken(c.get('db'), `altcha:${solution.signature}`, expiresAt)
    },
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The `expires` (seconds) of a challenge's salt (`<hex>?expires=…&`), in milliseconds. */
function expiryOf(salt: unknown): number | null {
  if (typeof salt !== 'string') return null
  const query = salt.indexOf('?')
  if (query < 0) return null
  const expires = new URLSearchParams(salt.slice(query + 1)).get('expires')
  return expires && /^\d{1,12}$/.test(expires) ? Number(expires) * 1000 : null
}
