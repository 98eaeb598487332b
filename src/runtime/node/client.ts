/**
 * `paylinks/client/node`: what the gateway client gains on Node — the product listing's
 * body-on-GET sender, and signature checks through node:crypto on the event loop.
 */
export { nodeGetWithBody } from './get-with-body.js'
export { verifyGatewaySignatureSync } from './signature.js'
