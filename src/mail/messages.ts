/**
 * The e-mails' own texts in Arabic, French and English (the receipt's labels come from src/i18n).
 * Node sends from these tables (`mailWordsInCode`); the Worker reads the same from its static
 * assets (src/runtime/worker/assets.ts), which keeps them out of its upload.
 */
import type { Language } from '../config.js'
import { type Messages, type Translate, translator } from '../lib/translate.js'

const en = {
  receiptSubject: 'Your receipt: {amount} to {merchant}',
  receiptIntro: 'Hello {name}, your card payment was accepted. Here is your receipt.',
  receiptLink: 'See your receipt online',
  receiptPdf: 'The receipt is attached as a PDF.',
  receiptHtml: 'The receipt is attached as a web page (HTML) to keep or print.',
  noticeSubject: 'Payment received: {amount} — {title}',
  noticeIntro: 'A customer paid {amount} through the link “{title}”.',
  customerEmail: 'E-mail',
  customerPhone: 'Phone',
  digestSubject: 'Payments received on {date}: {count}, {total}',
  digestIntro: 'Payments received on {date}: {count}, {total} in all.',
  digestNone: 'No payment was received on {date}.',
  footer: 'Sent by Paylinks for {merchant}.',
}

/** One language's e-mail texts. */
export type MailWords = Messages<typeof en>

const fr: MailWords = {
  receiptSubject: 'Votre reçu : {amount} à {merchant}',
  receiptIntro: 'Bonjour {name}, votre paiement par carte a été accepté. Voici votre reçu.',
  receiptLink: 'Voir votre reçu en ligne',
  receiptPdf: 'Le reçu est joint en PDF.',
  receiptHtml: 'Le reçu est joint en page web (HTML), à garder ou à imprimer.',
  noticeSubject: 'Paiement reçu : {amount} — {title}',
  noticeIntro: 'Un client a payé {amount} par le lien « {title} ».',
  customerEmail: 'E-mail',
  customerPhone: 'Téléphone',
  digestSubject: 'Paiements reçus le {date} : {count}, {total}',
  digestIntro: 'Paiements reçus le {date} : {count}, {total} au total.',
  digestNone: 'Aucun paiement reçu le {date}.',
  footer: 'Envoyé par Paylinks pour {merchant}.',
}

const ar: MailWords = {
  receiptSubject: 'وصل الدفع: {amount} إلى {merchant}',
  receiptIntro: 'مرحبًا {name}، تم قبول الدفع ببطاقتك. إليك وصل الدفع.',
  receiptLink: 'عرض الوصل على الإنترنت',
  receiptPdf: 'الوصل مرفق بصيغة PDF.',
  receiptHtml: 'الوصل مرفق كصفحة ويب (HTML) للاحتفاظ بها أو طباعتها.',
  noticeSubject: 'دفعة مستلمة: {amount} — {title}',
  noticeIntro: 'دفع زبون {amount} عبر الرابط «{title}».',
  customerEmail: 'البريد الإلكتروني',
  customerPhone: 'الهاتف',
  digestSubject: 'المدفوعات المستلمة يوم {date}: {count}، {total}',
  digestIntro: 'الدفعات المستلمة يوم {date}: {count}، بمجموع {total}.',
  digestNone: 'لم تُستلم أي دفعة يوم {date}.',
  footer: 'أُرسل عبر Paylinks لصالح {merchant}.',
}

export const MAIL_TABLES: Record<Language, MailWords> = { ar, fr, en }

export type MailKey = keyof typeof en

/** A language's e-mail texts, at once or once read. */
export type LoadMailWords = (lang: Language) => MailWords | Promise<MailWords>

/** The e-mail texts from the tables in the code (Node, and the Worker's build, for its assets). */
export const mailWordsInCode: LoadMailWords = (lang) => MAIL_TABLES[lang]

/** The e-mail translator over one language's texts: the one translator (src/lib/translate.ts). */
export const mailText: (words: MailWords) => Translate<MailKey> = translator
