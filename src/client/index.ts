/**
 * The Paylinks gateway client (`paylinks/client`): both gateway interfaces, card payments,
 * signatures, webhook parsers and money helpers, on Web APIs only (Node, Workers, browsers).
 */

export { fromBase64, toBase64, toBase64Url } from '../lib/bytes.js'
export {
  type Centimes,
  centimesToDzd,
  centimesToDzdNumber,
  centimesToDzdShort,
  dzdToCentimes,
  parseDzd,
  truncateMemo,
  truncateUtf8,
} from '../lib/money.js'
export { decodeStrKey, encodeStrKey, isValidAccountId, isValidSecretSeed } from '../lib/strkey.js'
export type {
  V1BillPaymentRequest,
  V1BillPaymentResponse,
} from './api-key/bills.js'
export type {
  V1CibCheckRequest,
  V1CibCheckResponse,
  V1CibTransactionRequest,
  V1CibTransactionResponse,
} from './api-key/cib.js'
export type { V1Interface } from './api-key/index.js'
export type {
  V1CreatedInvoice,
  V1CreateInvoiceRequest,
  V1InvoiceList,
} from './api-key/invoices.js'
export type {
  V1OperationDetails,
  V1OperationHistory,
  V1OperationsQuery,
} from './api-key/operations.js'
export type { V1ProductsCatalog, V1ProductsQuery } from './api-key/products.js'
export type {
  V1GameRechargeRequest,
  V1InternetRechargeRequest,
  V1OperationResponse,
  V1PhoneRechargeRequest,
} from './api-key/recharge.js'
export {
  type CardCheckExpectation,
  type CardCheckResult,
  type CardOutcome,
  type InterpretOptions,
  interpretCardCheck,
} from './card/check.js'
export type { CardTransaction, CibResponse } from './card/create.js'
export type { CardPayments } from './card/index.js'
export { type CardPaymentParams, cardParamsSchema } from './card/params.js'
export {
  createGatewayClient,
  createPaymentGateway,
  DEFAULT_SITE_URL,
  type GatewayClient,
  type GatewayClientOptions,
  type PaymentGateway,
} from './client.js'
export {
  type ApiErrorDetails,
  GatewayApiError,
  GatewayAuthenticationError,
  GatewayBadRequestError,
  GatewayConfigurationError,
  GatewayConnectionError,
  GatewayError,
  GatewayNotFoundError,
  GatewayRateLimitError,
  GatewayResponseError,
  GatewayServerError,
  GatewayTimeoutError,
  type RequestInfo,
  SignatureError,
  ValidationError,
} from './core/errors.js'
export { GATEWAY_PUBLIC_KEY_PEM } from './core/gateway-key.js'
export type { Json, JsonObject } from './core/parse.js'
export {
  importGatewayPublicKey,
  importSigningKey,
  signGatewayMessage,
  verifyGatewaySignature,
} from './core/signature.js'
export type { CallOptions, FetchLike, GetWithBody } from './core/transport.js'
export type {
  LedgerTransaction,
  Operation,
  OperationHistory,
  Pagination,
} from './direct/history.js'
export type { DirectInterface } from './direct/index.js'
export type {
  CreateInvoiceRequest,
  DirectInvoices,
  Invoice,
  InvoiceItem,
  InvoiceResult,
  ListInvoicesQuery,
  UpdateInvoiceRequest,
} from './direct/invoices.js'
export type {
  BillOperationRequest,
  GameOperationRequest,
  InternetOperationRequest,
  PhoneOperationRequest,
} from './direct/operation-schemas.js'
export { GAME_CODES, IDOOM_AMOUNTS } from './direct/operation-schemas.js'
export type {
  DirectOperations,
  OperationDetail,
  OperationHistoryQuery,
  OperationResult,
} from './direct/operations.js'
export type { DirectProducts, Product, ProductList, ProductsQuery } from './direct/products.js'
export {
  assertGatewaySignature,
  type CardWebhookEvent,
  parseCardWebhook,
  parseReturnQuery,
  type ReturnQuery,
} from './webhook.js'
