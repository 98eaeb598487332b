/**
 * ALTCHA on the checkout form: a self-hosted proof of work, no third party. Each page carries its
 * own signed challenge in the form (`data-challenge`), so a phone needs no second request: the
 * prepared page, the same for every visitor, keeps an empty slot that is filled with a fresh
 * challenge for each answer (`CHALLENGE_SLOT`, src/routes/static-page.ts). A script in the page
 * finds the number whose SHA-256 matches (./altcha-solver.ts) — fetching a challenge from the
 * checkout's `/challenge` address instead when the page's has expired — and fills the form field;
 * the server checks the signature, the expiry and that the solution was not used before (spent
 * solutions are kept until they expire).
 */
import { verifySolution } from 'altcha-lib/v1'
import { raw } from 'hono/html'
import { spendToken } from '../data/spent-tokens.js'
import type { Captcha } from '../deps.js'
import { fromBase64, fromUtf8 } from '../lib/bytes.js'
import { hex, hmacSha256, sha256HexOf } from '../lib/sha256-sync.js'
import { altchaSolverScript } from './altcha-solver.js'

const MAX_NUMBER = 20_000
const LIFETIME_MS = 30 * 60_000

/** The attribute a prepared page leaves empty, filled with a fresh challenge at each answer. */
export const CHALLENGE_SLOT = 'data-challenge=""'

/** Random bytes drawn in batches: one `getRandomValues` call per 256 challenges. */
const pool = new Uint8Array(4096)
let poolAt = pool.length
function randomBytes(n: number): Uint8Array {
  if (poolAt + n > pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  poolAt += n
  return pool.subarray(poolAt - n, poolAt)
}

let signer: { key: string; sign: (text: string) => Uint8Array } | undefined

/**
 * A fresh challenge as ALTCHA's `createChallenge` makes it (12 random bytes of salt with the expiry
 * in it, a secret number from 1 to `maxnumber`, SHA-256 and its HMAC), as JSON, without a promise.
 */
export function freshChallenge(key: string, now: number): string {
  if (signer?.key !== key) signer = { key, sign: hmacSha256(key) }
  const random = randomBytes(16)
  const salt = `${hex(random.subarray(0, 12))}?expires=${Math.floor((now + LIFETIME_MS) / 1000)}&`
  const draw = (random[12]! << 24) | (random[13]! << 16) | (random[14]! << 8) | random[15]!
  const number = 1 + ((draw >>> 0) % MAX_NUMBER)
  const challenge = sha256HexOf(salt + number)
  const signature = hex(signer.sign(challenge))
  return `{"algorithm":"SHA-256","challenge":"${challenge}","maxnumber":${MAX_NUMBER},"salt":"${salt}","signature":"${signature}"}`
}

/** `text` escaped for a double-quoted attribute. */
export function attributeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
}

/** The checkout captcha, keyed with the app's session secret. */
export function altchaCaptcha(): Captcha {
  return {
    challenge: freshChallenge,
    widget(ctx, challengeUrl, challenge) {
      const head = <script nonce={ctx.nonce || undefined}>{raw(altchaSolverScript())}</script>
      const field = (
        <div
          id="altcha"
          class="captcha muted"
          data-url={challengeUrl}
          data-challenge={challenge}
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
