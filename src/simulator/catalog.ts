/**
 * The simulator's fixed catalog: digital products (both interfaces list them) and the merchant's
 * own catalog items that invoices can reference by id. Prices are centimes inside.
 */
import type { Centimes } from './wire/amounts.js'

export type ProductCategory = 'phone' | 'internet' | 'game' | 'bill'

export interface Product {
  id: string
  name: string
  category: ProductCategory
  /** Operator, internet provider, game or biller the product belongs to. */
  provider: string
  /** Null where the caller chooses the amount (phone credit, bills). */
  price: Centimes | null
  available: boolean
}

const product = (
  id: string,
  name: string,
  category: ProductCategory,
  provider: string,
  price: Centimes | null,
  available = true,
): Product => ({ id, name, category, provider, price, available })

const INTERNET_AMOUNTS = [500, 1000, 2000, 3000, 5000, 10000]

/** Every product; `available: false` ones are listed nowhere (the catalog rule). */
export const PRODUCTS: readonly Product[] = [
  product('mobilis', 'Mobilis credit', 'phone', 'mobilis', null),
  product('djezzy', 'Djezzy credit', 'phone', 'djezzy', null),
  product('ooredoo', 'Ooredoo credit', 'phone', 'ooredoo', null),
  ...INTERNET_AMOUNTS.map((a) =>
    product(`idoom_4g_${a}`, `IDOOM 4G ${a}`, 'internet', 'idoom_4g', a * 100),
  ),
  ...INTERNET_AMOUNTS.map((a) =>
    product(`idoom_adsl_${a}`, `IDOOM ADSL ${a}`, 'internet', 'idoom_adsl', a * 100),
  ),
  product('djaweb_1000', 'Djaweb 1000', 'internet', 'djaweb', 100000),
  product('djaweb_2000', 'Djaweb 2000', 'internet', 'djaweb', 200000, false),
  product('freefire_110', 'Free Fire 110 Diamonds', 'game', 'freefire', 20000),
  product('freefire_210', 'Free Fire 210 Diamonds', 'game', 'freefire', 38000),
  product('freefire_530', 'Free Fire 530 Diamonds', 'game', 'freefire', 90000),
  product('freefire_1080', 'Free Fire 1080 Diamonds', 'game', 'freefire', 180000),
  product('freefire_2200', 'Free Fire 2200 Diamonds', 'game', 'freefire', 360000),
  product('pubg_60', 'PUBG Mobile 60 UC', 'game', 'pubg', 18000),
  product('pubg_325', 'PUBG Mobile 325 UC', 'game', 'pubg', 85000),
  product('pubg_660', 'PUBG Mobile 660 UC', 'game', 'pubg', 170000),
  product('ml_86', 'Mobile Legends 86 Diamonds', 'game', 'ml', 30000, false),
  product('ade', 'ADE water bill', 'bill', 'ade', null),
  product('sonelgaz', 'Sonelgaz electricity and gas bill', 'bill', 'sonelgaz', null),
  product('algerie_telecom', 'Algérie Télécom fixed-line bill', 'bill', 'algerie_telecom', null),
]

/** Available products whose name contains `search` (case-insensitive), all of them without one. */
export function searchProducts(search?: string): Product[] {
  const needle = search?.trim().toLowerCase()
  return PRODUCTS.filter((p) => p.available && (!needle || p.name.toLowerCase().includes(needle)))
}

/** An available product by id. */
export function findProduct(id: string): Product | undefined {
  return PRODUCTS.find((p) => p.available && p.id === id)
}

/** Items of the merchant's own catalog, usable as `existing_item_ids` on invoices. */
export interface CatalogItem {
  id: string
  name: string
  unitPrice: Centimes
}

export const CATALOG_ITEMS: readonly CatalogItem[] = [
  { id: 'item-001', name: 'Consultation (1 hour)', unitPrice: 250000 },
  { id: 'item-002', name: 'Delivery in Algiers', unitPrice: 50000 },
  { id: 'item-003', name: 'Handmade basket', unitPrice: 129950 },
]
