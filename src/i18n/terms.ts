/**
 * The /terms page's own texts in each language: the online card payment's terms, and the
 * merchant's default terms of sale (shown when the settings hold none). Node answers from these
 * tables (`termsTextsInCode`); the Worker reads the same from its static assets
 * (src/runtime/worker/assets.ts), which keeps them out of its upload: no other page shows them.
 */
import type { Language } from '../config.js'

export interface TermsTexts {
  /** Online card payment: how it works and what is kept. */
  online: string
  /** The merchant's default terms of sale. */
  merchant: string
}

// In Arabic, "3-D Secure" is isolated left-to-right (LRI … PDI): in a right-to-left line it
// would read "D Secure-3".
export const TERMS_TEXTS: Record<Language, TermsTexts> = {
  ar: {
    online:
      'تتم عمليات الدفع ببطاقة CIB أو الذهبية عبر الصفحة الآمنة لشبكة النقد الآلي ما بين البنوك (ساتيم) المحمية بتقنية \u20663-D Secure\u2069. تُدخل معلومات بطاقتك في تلك الصفحة فقط، ولا يطّلع عليها التاجر ولا يحتفظ بها. تتلقى وصلًا عند تأكيد الدفع. لا يُقتطع أي مبلغ لعملية دفع غير مؤكدة.',
    merchant:
      'التاجر المذكور في صفحة الدفع هو بائع السلع أو الخدمات الموصوفة فيها، وهو المسؤول عن تسليمها وعن الاسترجاع والشكاوى. اتصل بالتاجر لأي سؤال عن طلبك.',
  },
  fr: {
    online:
      'Les paiements se font par carte CIB ou Edahabia sur la page sécurisée du réseau monétique interbancaire (SATIM), protégée par 3-D Secure. Vos données de carte sont saisies uniquement sur cette page ; le commerçant ne les voit ni ne les conserve. Vous recevez un reçu lorsque le paiement est confirmé. Un paiement non confirmé n’est pas débité.',
    merchant:
      'Le commerçant nommé sur la page de paiement vend les biens ou services qui y sont décrits et répond de leur livraison, des remboursements et des réclamations. Contactez-le pour toute question sur votre commande.',
  },
  en: {
    online:
      'Payments are made by CIB or Edahabia card on the secure page of the interbank card network (SATIM), protected by 3-D Secure. Your card details are entered on that page only and are never seen or stored by the merchant. You receive a receipt when the payment is confirmed. A payment that is not confirmed is not charged.',
    merchant:
      'The merchant named on the payment page sells the goods or services described there and is responsible for their delivery, refunds and complaints. Contact the merchant for any question about your order.',
  },
}

/** A language's terms texts, at once or once read. */
export type LoadTermsTexts = (lang: Language) => TermsTexts | Promise<TermsTexts>

/** The terms texts from the tables in the code (Node, and the Worker's build, for its assets). */
export const termsTextsInCode: LoadTermsTexts = (lang) => TERMS_TEXTS[lang]
