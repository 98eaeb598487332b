/**
 * Each outcome of a card payment in the card network's vocabulary (SATIM, gateway-facts.md): what
 * the check endpoint, the webhook and the return redirect say about it.
 */
import type { CardOutcome, Language } from '../state.js'

type Localised = Record<Language, string>

export interface OutcomeSpec {
  orderStatus: number
  errorCode: string
  errorMessage: string
  actionCode: number
  actionCodeDescription: Localised
  respCode: string
  /** Empty for a cancelled or expired session: the customer is then shown actionCodeDescription. */
  respCodeDesc: Localised | null
  /** `payment_status` on the return redirect. */
  returnStatus: 'success' | 'failed' | 'canceled' | 'expired'
  /** `payment_status` of the webhook, which knows only `success` and `failed`. */
  webhookStatus: 'success' | 'failed'
}

const APPROVED: Localised = {
  en: 'Your payment was accepted.',
  fr: 'Votre paiement a été accepté avec succès.',
  ar: 'تم قبول الدفع بنجاح.',
}
const DECLINED: Localised = {
  en: 'Your payment was declined.',
  fr: 'Votre paiement a été refusé.',
  ar: 'تم رفض الدفع.',
}
const DECLINED_BASE = {
  orderStatus: 6,
  errorCode: '2',
  errorMessage: 'Payment is declined',
  respCode: '05',
  respCodeDesc: DECLINED,
  returnStatus: 'failed',
  webhookStatus: 'failed',
} as const

/** The outcome table. */
export const OUTCOMES: Record<CardOutcome, OutcomeSpec> = {
  approved: {
    orderStatus: 2,
    errorCode: '0',
    errorMessage: 'Success',
    actionCode: 0,
    actionCodeDescription: {
      en: 'Request processed successfully',
      fr: 'Demande traitée avec succès',
      ar: 'تمت معالجة الطلب بنجاح',
    },
    respCode: '00',
    respCodeDesc: APPROVED,
    returnStatus: 'success',
    webhookStatus: 'success',
  },
  insufficient_funds: {
    ...DECLINED_BASE,
    actionCode: 116,
    actionCodeDescription: {
      en: 'Insufficient funds',
      fr: 'Solde insuffisant',
      ar: 'رصيد غير كاف',
    },
  },
  declined: {
    ...DECLINED_BASE,
    actionCode: 100,
    actionCodeDescription: {
      en: 'Do not honour',
      fr: 'Transaction refusée par la banque',
      ar: 'رفض البنك العملية',
    },
  },
  expired_card: {
    ...DECLINED_BASE,
    actionCode: 101,
    actionCodeDescription: { en: 'Expired card', fr: 'Carte expirée', ar: 'بطاقة منتهية الصلاحية' },
  },
  canceled: {
    ...DECLINED_BASE,
    errorMessage: 'Payment cancelled by the customer',
    actionCode: 10,
    actionCodeDescription: {
      en: 'Payment cancelled by the customer',
      fr: 'Paiement annulé par le client',
      ar: 'ألغى الزبون الدفع',
    },
    respCode: '',
    respCodeDesc: null,
    returnStatus: 'canceled',
  },
  session_expired: {
    ...DECLINED_BASE,
    errorMessage: 'Payment session expired',
    actionCode: -2007,
    actionCodeDescription: {
      en: 'Payment session expired',
      fr: 'La session de paiement a expiré',
      ar: 'انتهت صلاحية جلسة الدفع',
    },
    respCode: '',
    respCodeDesc: null,
    returnStatus: 'expired',
  },
}

/** What the check answers for an order nobody has paid yet. */
export const NOT_PAID = {
  orderStatus: 0,
  errorCode: '0',
  errorMessage: 'Success',
  actionCode: -100,
  actionCodeDescription: {
    en: 'No payment attempt yet',
    fr: 'Aucune tentative de paiement',
    ar: 'لا توجد محاولة دفع بعد',
  } satisfies Localised,
  respCode: '',
}
