/**
 * The open-amount checkout's Pay button says the amount as it is typed ("Payer 1 500,00 DA"). The
 * page works without it (the button then says "Pay"); the text is the same for every page (one CSP
 * hash). It reads the amount as the server does (Arabic-Indic and Persian digits, `,` or `.` for
 * the centimes, spaces ignored) and writes it with the page's own separators and unit
 * (`data-group`, `data-decimal`, `data-unit`, taken from the server's formatting).
 */
export const PAY_AMOUNT_SCRIPT =
  "(function(){var a=document.getElementById('amount'),b=document.querySelector('button.pay [data-pay]');if(!a||!b)return;var g=b.getAttribute('data-group'),k=b.getAttribute('data-decimal'),u=b.getAttribute('data-unit'),p=b.getAttribute('data-pay'),z=b.textContent;" +
  "function up(){var v=a.value.replace(/[\\u0660-\\u0669\\u06f0-\\u06f9]/g,function(d){var c=d.charCodeAt(0);return String(c-(c>=0x6f0?0x6f0:0x660))}).replace(/\\u066b/g,',').replace(/[\\s\\u066c]/g,'').replace(',','.'),m=/^(\\d{1,9})(?:\\.(\\d{1,2}))?$/.exec(v);" +
  "if(!m){b.textContent=z;return}var w=m[1].replace(/^0+(?=\\d)/,'').replace(/\\B(?=(\\d{3})+(?!\\d))/g,g);b.textContent=p.replace('{amount}',w+k+((m[2]||'')+'00').slice(0,2)+u)}" +
  "a.addEventListener('input',up);up()})()"

/** The group separator, decimal mark and unit of `sample`, an amount of 1 000 000,00 formatted. */
export function amountParts(sample: string): { group: string; decimal: string; unit: string } {
  const m = /^1(\D*)000\D*000(\D)00([\s\S]*)$/.exec(sample)
  return { group: m?.[1] ?? '', decimal: m?.[2] ?? ',', unit: m?.[3] ?? '' }
}
