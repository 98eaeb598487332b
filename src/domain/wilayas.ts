/**
 * The 58 wilayas of Algeria: the 48 of the 1984 division (01–48) and the ten made wilayas in 2019
 * (49 Timimoun … 58 El Meniaa), by their official code, with their Arabic and French names. A
 * custom field of type `wilaya` stores the code; pages show the name in their language (English
 * pages use the French names, which are the Latin ones in use), receipts and exports "16 — Alger".
 */
import type { Language } from '../../db/schema.js'

export type Wilaya = { code: string; ar: string; fr: string }

export const WILAYAS: readonly Wilaya[] = [
  { code: '01', fr: 'Adrar', ar: 'أدرار' },
  { code: '02', fr: 'Chlef', ar: 'الشلف' },
  { code: '03', fr: 'Laghouat', ar: 'الأغواط' },
  { code: '04', fr: 'Oum El Bouaghi', ar: 'أم البواقي' },
  { code: '05', fr: 'Batna', ar: 'باتنة' },
  { code: '06', fr: 'Béjaïa', ar: 'بجاية' },
  { code: '07', fr: 'Biskra', ar: 'بسكرة' },
  { code: '08', fr: 'Béchar', ar: 'بشار' },
  { code: '09', fr: 'Blida', ar: 'البليدة' },
  { code: '10', fr: 'Bouira', ar: 'البويرة' },
  { code: '11', fr: 'Tamanrasset', ar: 'تمنراست' },
  { code: '12', fr: 'Tébessa', ar: 'تبسة' },
  { code: '13', fr: 'Tlemcen', ar: 'تلمسان' },
  { code: '14', fr: 'Tiaret', ar: 'تيارت' },
  { code: '15', fr: 'Tizi Ouzou', ar: 'تيزي وزو' },
  { code: '16', fr: 'Alger', ar: 'الجزائر' },
  { code: '17', fr: 'Djelfa', ar: 'الجلفة' },
  { code: '18', fr: 'Jijel', ar: 'جيجل' },
  { code: '19', fr: 'Sétif', ar: 'سطيف' },
  { code: '20', fr: 'Saïda', ar: 'سعيدة' },
  { code: '21', fr: 'Skikda', ar: 'سكيكدة' },
  { code: '22', fr: 'Sidi Bel Abbès', ar: 'سيدي بلعباس' },
  { code: '23', fr: 'Annaba', ar: 'عنابة' },
  { code: '24', fr: 'Guelma', ar: 'قالمة' },
  { code: '25', fr: 'Constantine', ar: 'قسنطينة' },
  { code: '26', fr: 'Médéa', ar: 'المدية' },
  { code: '27', fr: 'Mostaganem', ar: 'مستغانم' },
  { code: '28', fr: "M'Sila", ar: 'المسيلة' },
  { code: '29', fr: 'Mascara', ar: 'معسكر' },
  { code: '30', fr: 'Ouargla', ar: 'ورقلة' },
  { code: '31', fr: 'Oran', ar: 'وهران' },
  { code: '32', fr: 'El Bayadh', ar: 'البيض' },
  { code: '33', fr: 'Illizi', ar: 'إليزي' },
  { code: '34', fr: 'Bordj Bou Arréridj', ar: 'برج بوعريريج' },
  { code: '35', fr: 'Boumerdès', ar: 'بومرداس' },
  { code: '36', fr: 'El Tarf', ar: 'الطارف' },
  { code: '37', fr: 'Tindouf', ar: 'تندوف' },
  { code: '38', fr: 'Tissemsilt', ar: 'تيسمسيلت' },
  { code: '39', fr: 'El Oued', ar: 'الوادي' },
  { code: '40', fr: 'Khenchela', ar: 'خنشلة' },
  { code: '41', fr: 'Souk Ahras', ar: 'سوق أهراس' },
  { code: '42', fr: 'Tipaza', ar: 'تيبازة' },
  { code: '43', fr: 'Mila', ar: 'ميلة' },
  { code: '44', fr: 'Aïn Defla', ar: 'عين الدفلى' },
  { code: '45', fr: 'Naâma', ar: 'النعامة' },
  { code: '46', fr: 'Aïn Témouchent', ar: 'عين تموشنت' },
  { code: '47', fr: 'Ghardaïa', ar: 'غرداية' },
  { code: '48', fr: 'Relizane', ar: 'غليزان' },
  // The ten of 2019 (law 19-12), formerly delegated wilayas of the south.
  { code: '49', fr: 'Timimoun', ar: 'تيميمون' },
  { code: '50', fr: 'Bordj Badji Mokhtar', ar: 'برج باجي مختار' },
  { code: '51', fr: 'Ouled Djellal', ar: 'أولاد جلال' },
  { code: '52', fr: 'Béni Abbès', ar: 'بني عباس' },
  { code: '53', fr: 'In Salah', ar: 'عين صالح' },
  { code: '54', fr: 'In Guezzam', ar: 'عين قزام' },
  { code: '55', fr: 'Touggourt', ar: 'تقرت' },
  { code: '56', fr: 'Djanet', ar: 'جانت' },
  { code: '57', fr: "El M'Ghair", ar: 'المغير' },
  { code: '58', fr: 'El Meniaa', ar: 'المنيعة' },
]

const BY_CODE = new Map(WILAYAS.map((w) => [w.code, w]))

/** The wilaya of a code (`16`), or undefined. */
export function wilayaByCode(code: string): Wilaya | undefined {
  return BY_CODE.get(code)
}

/** A wilaya's name in a page's language: Arabic, else the French (Latin) name. */
export function wilayaName(w: Wilaya, lang: Language): string {
  return lang === 'ar' ? w.ar : w.fr
}

/**
 * A stored code as receipts and exports write it: "16 — Alger" (or "16 — الجزائر"); a code that
 * names no wilaya (written by other means) is shown as it is.
 */
export function wilayaLabel(code: string, lang: Language): string {
  const w = BY_CODE.get(code)
  return w ? `${w.code} — ${wilayaName(w, lang)}` : code
}
