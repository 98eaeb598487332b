/**
 * The gateway client the `paylinks gateway` commands use, from the same environment names the
 * server reads. In simulator mode its credentials are the built-in simulator's (served by a
 * running Paylinks at PUBLIC_URL/_sim, or wherever GATEWAY_SITE_URL says).
 */
import { createGatewayClient, type GatewayClient } from '../../../client/index.js'
import { ConfigError, parseConfig } from '../../../config.js'
import { nodeGetWithBody } from '../client.js'
import { CliError } from './output.js'

/** A client for this configuration; `moving` clients never retry (a call that moves money). */
export async function gatewayClient(options: { moving?: boolean } = {}): Promise<GatewayClient> {
  let config: ReturnType<typeof parseConfig>
  try {
    config = parseConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError)
      throw new CliError(`${error.message}\n(paylinks doctor says more)`)
    throw error
  }
  let apiKey = config.gatewayApiKey
  let secretKey = config.gatewaySecretKey
  if (config.gatewayMode === 'simulator') {
    // Only in simulator mode: the simulator's well-known test credentials.
    const sim = await import('../../../simulator/index.js')
    apiKey ??= sim.SIMULATOR_API_KEY
    secretKey ??= sim.SIMULATOR_SECRET_SEED
  }
  return createGatewayClient({
    siteUrl: config.gatewaySiteUrl,
    ...(config.gatewayApiUrl ? { apiUrl: config.gatewayApiUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    ...(secretKey ? { secretKey } : {}),
    sandbox: config.gatewayMode === 'sandbox',
    timeoutMs: 30_000,
    checkAmountUnit: config.checkAmountUnit,
    getWithBody: nodeGetWithBody,
    ...(options.moving ? { maxRetries: 0 } : {}),
  })
}
