/**
 * What a staff password costs on Node: the app as Node assembles it stores OWASP's 600,000
 * PBKDF2 iterations (the harness uses fewer elsewhere, to spare the suite's CPU), and a password
 * stored at a lower cost is hashed again at 600,000 on the next sign-in.
 */
import { afterEach, expect, it } from 'vitest'
import { hashPassword, OWASP_ITERATIONS } from '../../src/security/passwords.js'
import { Browser, signedIn } from '../dashboard/helpers.js'
import { type Paylinks, startPaylinks, TEST_PASSWORD_ITERATIONS } from '../support/harness.js'
import { accept, invite, PASSWORD, passwordLogin } from './people-support.js'

let p: Paylinks
afterEach(() => p?.close())

const storedHash = (email: string) =>
  (
    p.sqlite.sqlite
      .prepare('SELECT password_hash AS hash FROM users WHERE email = ?')
      .get(email) as {
      hash: string
    }
  ).hash

it('stores a new person’s password at 600,000 iterations, the runtime’s own cost', async () => {
  p = await startPaylinks({ passwordIterations: 'runtime' })
  expect(p.deps.passwordIterations).toBe(OWASP_ITERATIONS)
  const { response } = await accept(
    p,
    await invite(await signedIn(p), 'amina@example.dz', 'manager'),
    'Amina',
  )
  expect(response.status).toBe(303)
  expect(storedHash('amina@example.dz')).toMatch(/^pbkdf2-sha256\$600000\$/)
})

it('hashes a password stored at a lower cost again at 600,000 on sign-in', async () => {
  p = await startPaylinks({ passwordIterations: 'runtime' })
  await accept(p, await invite(await signedIn(p), 'karim@example.dz', 'viewer'), 'Karim')
  const cheap = await hashPassword(PASSWORD, TEST_PASSWORD_ITERATIONS)
  p.sqlite.sqlite
    .prepare('UPDATE users SET password_hash = ? WHERE email = ?')
    .run(cheap, 'karim@example.dz')
  const answer = await passwordLogin(new Browser(p), 'karim@example.dz')
  expect(answer.status).toBe(303)
  expect(storedHash('karim@example.dz')).toMatch(/^pbkdf2-sha256\$600000\$/)
})
