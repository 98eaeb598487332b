/**
 * ALTCHA on the checkout form: a self-hosted proof of work, no third party. A few lines of script
 * fetch a signed challenge from the checkout's `/challenge` address (so the page itself stays the
 * same for every visitor and can be served from cache), find the number whose SHA-256 matches, and
 * fill the form field; the server checks the signature, the expiry and that the solution was not
 * used before (spent solutions are kept until they expire).
 */
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { raw } from 'hono/html'
import type { Captcha } from '../app-deps.js'
import { spendToken } from '../data/spent-tokens.js'
import { fromBase64, fromUtf8 } from '../lib/bytes.js'

const MAX_NUMBER = 20_000
const LIFETIME_MS = 30 * 60_000

// Fetches a challenge, solves it with WebCrypto and fills the hidden field (ALTCHA's payload format).
const SOLVER = `(async function(){var e=document.getElementById('altcha');if(!e)return;var c,i=e.querySelector('input'),s=e.querySelector('.st'),x=new TextEncoder(),t=Date.now(),f=e.closest('form'),b=f&&f.querySelector('button[type=submit]');if(b)b.disabled=true;try{c=await(await fetch(e.getAttribute('data-url'),{cache:'no-store',credentials:'same-origin'})).json();for(var n=0;n<=c.maxnumber;n++){var h=new Uint8Array(await crypto.subtle.digest('SHA-256',x.encode(c.salt+n))),o='';for(var k=0;k<h.length;k++)o+=(h[k]<16?'0':'')+h[k].toString(16);if(o===c.challenge){i.value=btoa(JSON.stringify({algorithm:c.algorithm,challenge:c.challenge,number:n,salt:c.salt,signature:c.signature,took:Date.now()-t}));s.textContent=e.getAttribute('data-done');if(b)b.disabled=false;return}}}catch(_){}s.textContent=e.getAttribute('data-fail');if(b)b.disabled=false})()`

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
          <script nonce={ctx.nonce || undefined}>{raw(SOLVER)}</script>
        </div>
      )
      return { head: null, field }
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
