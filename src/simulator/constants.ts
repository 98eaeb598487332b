/**
 * The simulator's published test credentials and cards. They are fixed and documented so that an
 * integrator can copy them from the README; none of them is worth anything outside the simulator.
 */

/** The `X-API-Key` accepted by the simulator's `/api/v1` interface unless another is configured. */
export const SIMULATOR_API_KEY = 'sim_test_key'

/** A checksum-valid ledger secret seed for the direct interface (`encrypted_sk`); the default merchant. */
export const SIMULATOR_SECRET_SEED = 'SAFTAVL2T7COSDRTLB62FR7MCE3FXAFFZLXRIOK6QOUM34QXHRQYNR3M'

/** The default merchant's receiving ledger account (`G…`), valid StrKey. */
export const SIMULATOR_MERCHANT_ACCOUNT = 'GADTY4NG3MIEK6VP4QMU5A5Y5URFPDGB6YVWBFOK742GTHWTBA6XERS5'

/** The service's own ledger account: the destination of the ledger transaction paying for an operation. */
export const SIMULATOR_SERVICE_ACCOUNT = 'GBSYFH543H3BGMCNNKD2JQO67MMDKUTPRSU4NYYADU5FO5ERV3F6QJSH'

/** The one-time code accepted at the 3-D Secure step; any other gives `Invalid OTP code`. */
export const TEST_OTP = '123456'

/** What paying with a test card leads to. */
export type TestCardOutcome = 'approved' | 'insufficient_funds' | 'declined' | 'expired_card'

/** A test card as printed on the card page and in the README. */
export interface TestCard {
  readonly number: string
  /** MM/YY */
  readonly expiry: string
  readonly cvv: string
  readonly label: string
  readonly outcome: TestCardOutcome
}

/** The simulator's test cards (Luhn-valid numbers on the card networks' 6280 range). */
export const TEST_CARDS: readonly TestCard[] = [
  {
    number: '6280580000000009',
    expiry: '12/30',
    cvv: '123',
    label: 'CIB — approved',
    outcome: 'approved',
  },
  {
    number: '6280581111111115',
    expiry: '12/30',
    cvv: '123',
    label: 'Edahabia — approved',
    outcome: 'approved',
  },
  {
    number: '6280582222222221',
    expiry: '12/30',
    cvv: '123',
    label: 'Declined: insufficient funds (action code 116)',
    outcome: 'insufficient_funds',
  },
  {
    number: '6280583333333337',
    expiry: '12/30',
    cvv: '123',
    label: 'Declined: do not honour (action code 100)',
    outcome: 'declined',
  },
  {
    number: '6280584444444443',
    expiry: '01/21',
    cvv: '123',
    label: 'Expired card (action code 101)',
    outcome: 'expired_card',
  },
]

/** Finds the test card with this number (spaces and dashes ignored). */
export function findTestCard(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, '')
  return TEST_CARDS.find((card) => card.number === digits)
}
