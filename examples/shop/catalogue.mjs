/**
 * What the shop sells. Prices are whole centimes (12 500,00 DA is 1250000): money is never a
 * floating-point number inside the shop; it becomes DZD with two decimals only where the
 * Paylinks API reads it (see checkout.mjs).
 */
export const PRODUCTS = [
  {
    id: 'the-menthe',
    name: { fr: 'Thé vert à la menthe, 250 g', en: 'Mint green tea, 250 g' },
    price: 45000,
  },
  {
    id: 'dattes-deglet',
    name: { fr: 'Dattes Deglet Nour, 1 kg', en: 'Deglet Nour dates, 1 kg' },
    price: 120000,
  },
  {
    id: 'huile-olive',
    name: { fr: "Huile d'olive de Kabylie, 1 L", en: 'Kabyle olive oil, 1 L' },
    price: 150000,
  },
  {
    id: 'tapis-berbere',
    name: { fr: 'Tapis berbère tissé main', en: 'Hand-woven Berber rug' },
    price: 1250000,
  },
]

/** The product with this id, or undefined. */
export function findProduct(id) {
  return PRODUCTS.find((product) => product.id === id)
}
