/** The card page's words in Arabic, French and English. */
import { interpolate, type Messages } from '../../lib/translate.js'
import type { TestCardOutcome } from '../constants.js'
import type { Language } from '../state.js'

const en = {
  title: 'Card payment',
  banner: 'SIMULATOR — no real money. This page imitates the card network’s payment page.',
  sandbox: 'Sandbox transaction',
  merchant: 'Merchant account',
  amount: 'Amount',
  order: 'Order number',
  memo: 'Note',
  cardNumber: 'Card number',
  expiry: 'Expiry date (MM/YY)',
  cvv: 'CVV2 (3 digits on the back)',
  pay: 'Pay',
  cancel: 'Cancel the payment',
  expire: 'Let the session expire',
  testCards: 'Test cards',
  cardColumn: 'Card number',
  expiryColumn: 'Expiry',
  cvvColumn: 'CVV',
  outcomeColumn: 'Result',
  otpTitle: '3-D Secure verification',
  otpHint: 'Enter the one-time code sent by your bank. Test code: {otp}',
  otp: 'One-time code',
  confirm: 'Confirm',
  invalidOtp: 'Invalid OTP code',
  unknownCard: 'This is not one of the simulator’s test cards: use a card from the table below.',
  wrongExpiry: 'The expiry date does not match this test card.',
  wrongCvv: 'The CVV does not match this test card.',
  resultTitle: 'Payment result',
  back: 'Return to the merchant',
  noReturn: 'The merchant gave no return address. You can close this page.',
  notFound: 'This payment does not exist.',
  language: 'Language',
  expiresAt: 'This session expires at {time} (UTC).',
}

export type CardPageWords = Messages<typeof en>

const fr: CardPageWords = {
  title: 'Paiement par carte',
  banner:
    'SIMULATEUR — aucun argent réel. Cette page imite la page de paiement du réseau de cartes.',
  sandbox: 'Transaction de test (sandbox)',
  merchant: 'Compte du commerçant',
  amount: 'Montant',
  order: 'Numéro de commande',
  memo: 'Note',
  cardNumber: 'Numéro de carte',
  expiry: 'Date d’expiration (MM/AA)',
  cvv: 'CVV2 (3 chiffres au dos)',
  pay: 'Payer',
  cancel: 'Annuler le paiement',
  expire: 'Laisser la session expirer',
  testCards: 'Cartes de test',
  cardColumn: 'Numéro de carte',
  expiryColumn: 'Expiration',
  cvvColumn: 'CVV',
  outcomeColumn: 'Résultat',
  otpTitle: 'Vérification 3-D Secure',
  otpHint: 'Saisissez le code à usage unique envoyé par votre banque. Code de test : {otp}',
  otp: 'Code à usage unique',
  confirm: 'Confirmer',
  invalidOtp: 'Code OTP invalide (Invalid OTP code)',
  unknownCard:
    'Cette carte n’est pas une carte de test du simulateur : utilisez une carte du tableau.',
  wrongExpiry: 'La date d’expiration ne correspond pas à cette carte de test.',
  wrongCvv: 'Le CVV ne correspond pas à cette carte de test.',
  resultTitle: 'Résultat du paiement',
  back: 'Retour au commerçant',
  noReturn: 'Le commerçant n’a pas donné d’adresse de retour. Vous pouvez fermer cette page.',
  notFound: 'Ce paiement n’existe pas.',
  language: 'Langue',
  expiresAt: 'Cette session expire à {time} (UTC).',
}

const ar: CardPageWords = {
  title: 'الدفع بالبطاقة',
  banner: 'محاكي — لا أموال حقيقية. هذه الصفحة تحاكي صفحة الدفع لشبكة البطاقات.',
  sandbox: 'عملية تجريبية (sandbox)',
  merchant: 'حساب التاجر',
  amount: 'المبلغ',
  order: 'رقم الطلب',
  memo: 'ملاحظة',
  cardNumber: 'رقم البطاقة',
  expiry: 'تاريخ الانتهاء (MM/YY)',
  cvv: 'رمز CVV2 (3 أرقام على الظهر)',
  pay: 'ادفع',
  cancel: 'إلغاء الدفع',
  expire: 'ترك الجلسة تنتهي',
  testCards: 'بطاقات الاختبار',
  cardColumn: 'رقم البطاقة',
  expiryColumn: 'الانتهاء',
  cvvColumn: 'CVV',
  outcomeColumn: 'النتيجة',
  // The Latin name isolated (LRI … PDI), else right-to-left order shows it as "D Secure-3".
  otpTitle: 'التحقق \u20663-D Secure\u2069',
  otpHint: 'أدخل الرمز المؤقت الذي أرسله بنكك. رمز الاختبار: {otp}',
  otp: 'الرمز المؤقت',
  confirm: 'تأكيد',
  invalidOtp: 'رمز OTP غير صالح (Invalid OTP code)',
  unknownCard: 'هذه ليست بطاقة اختبار للمحاكي: استعمل بطاقة من الجدول أدناه.',
  wrongExpiry: 'تاريخ الانتهاء لا يطابق بطاقة الاختبار هذه.',
  wrongCvv: 'رمز CVV لا يطابق بطاقة الاختبار هذه.',
  resultTitle: 'نتيجة الدفع',
  back: 'العودة إلى التاجر',
  noReturn: 'لم يحدد التاجر عنوان عودة. يمكنك إغلاق هذه الصفحة.',
  notFound: 'هذا الدفع غير موجود.',
  language: 'اللغة',
  expiresAt: 'تنتهي هذه الجلسة على الساعة {time} (UTC).',
}

/** The card page's words for a language. */
export const WORDS: Record<Language, CardPageWords> = { ar, fr, en }

/** Replaces `{name}` placeholders, as every translator of Paylinks does (src/lib/translate.ts). */
export const fill = interpolate

/**
 * Amount as the card page shows it: `1 500,00 DA`-style per language, from DZD decimal text. In
 * Arabic it is isolated left-to-right (LRI … PDI): in a right-to-left line its currency would
 * otherwise come first ("DA 1 500,00").
 */
export function formatAmount(dzd: string, lang: Language): string {
  const [whole = '0', fraction = '00'] = dzd.split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'en' ? ',' : '\u00a0')
  if (lang === 'en') return `${grouped}.${fraction} DZD`
  const amount = `${grouped},${fraction} DA`
  return lang === 'ar' ? `\u2066${amount}\u2069` : amount
}

/** What each test card does, per language (the card table's last column). */
export const CARD_OUTCOME_LABELS: Record<Language, Record<TestCardOutcome, string>> = {
  en: {
    approved: 'Approved',
    insufficient_funds: 'Declined: insufficient funds (116)',
    declined: 'Declined: do not honour (100)',
    expired_card: 'Declined: expired card (101)',
  },
  fr: {
    approved: 'Acceptée',
    insufficient_funds: 'Refusée : solde insuffisant (116)',
    declined: 'Refusée : transaction refusée (100)',
    expired_card: 'Refusée : carte expirée (101)',
  },
  ar: {
    approved: 'مقبولة',
    insufficient_funds: 'مرفوضة: رصيد غير كاف (116)',
    declined: 'مرفوضة: رفض البنك (100)',
    expired_card: 'مرفوضة: بطاقة منتهية الصلاحية (101)',
  },
}
