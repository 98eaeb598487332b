/**
 * The stylesheet of the customer pages, inlined (with the CSP nonce, or hashed) so a page is a
 * single request on a slow phone. Logical properties (inline-start/end, block-start/end) mirror the
 * layout for Arabic without a second stylesheet. Fonts are the phone's own: no font is downloaded.
 * The dashboard builds on it, so class names here are shared.
 */
/** The rules the checkout form uses, and every page with it. */
export const CHECKOUT_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic",Tahoma,sans-serif;color:#1b1f24;background:#f3f5f7}
[dir=rtl] body{font-family:"Noto Sans Arabic","Noto Naskh Arabic","Segoe UI",Tahoma,system-ui,sans-serif}
[hidden]{display:none!important}
a{color:#0b5cad}
.wrap{max-inline-size:34rem;margin-inline:auto;padding:1rem}
.test{background:#fff3bf;color:#5c4400;text-align:center;padding:.4rem .75rem;font-weight:600;font-size:.9rem;border-block-end:1px solid #e6c84f}
header.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.25rem .5rem;padding-block:0 .75rem}
.merchant{font-weight:700;font-size:1.05rem;overflow-wrap:anywhere}
nav.lang{display:flex;gap:.15rem;font-size:.9rem;margin-inline-start:auto}
nav.lang a{display:inline-block;padding:.5rem .55rem;border-radius:8px;line-height:1.2}
nav.lang a[aria-current]{font-weight:700;color:inherit;text-decoration:none;background:#e3e8ed}
.card{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:1.25rem;margin-block-end:1rem}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:1rem 0 .5rem}
.muted{color:#57606a}
.amount{font-size:2rem;font-weight:800;line-height:1.2;margin:.5rem 0;unicode-bidi:isolate}
.amount small{font-size:.9rem;font-weight:600;color:#57606a;display:block}
label{display:block;font-weight:600;margin-block:.75rem .25rem}
input[type=text],input[type=tel],input[type=email],input[type=number],input[type=password],input[type=url],input[type=datetime-local],select,textarea{inline-size:100%;font:inherit;padding:.7rem .75rem;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit}
input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]{border-color:#b42318;border-width:2px}
input:focus-visible,select:focus-visible,textarea:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #2f81f7;outline-offset:1px}
input[type=tel],input[type=email],input[inputmode=decimal]{direction:ltr}
[dir=rtl] input[type=tel],[dir=rtl] input[type=email],[dir=rtl] input[inputmode=decimal]{text-align:end}
.check{display:flex;gap:.6rem;align-items:flex-start;font-weight:400;margin-block:1rem}
.check input{inline-size:1.35rem;block-size:1.35rem;margin:.1rem 0 0;flex:none}
.err{color:#b42318;font-size:.9rem;margin:.25rem 0 0}
.alert{background:#fdecea;color:#7a1d14;border-radius:8px;padding:.75rem;margin-block:0 1rem}
button,.btn{display:inline-flex;align-items:center;justify-content:center;gap:.6rem;font:inherit;font-weight:700;border:0;border-radius:10px;padding:.85rem 1.1rem;background:#0b5cad;color:#fff;text-decoration:none;cursor:pointer}
button.pay{inline-size:100%;font-size:1.1rem;margin-block-start:.5rem;flex-wrap:wrap}
button:disabled{opacity:.6;cursor:wait}
.marks{display:inline-flex;gap:.3rem;direction:ltr}
.marks svg{block-size:1.5rem;inline-size:auto;border-radius:3px;background:#fff}
table{inline-size:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:start;padding:.45rem .25rem;border-block-end:1px solid #e5e8eb;vertical-align:top}
td.num,th.num{text-align:end;white-space:nowrap}
caption{text-align:start}
tfoot th,tfoot td{border-block-end:0;font-weight:700}
.cart th,.cart td{padding-inline:.15rem}
.cart td.num{padding-inline-start:.6rem}
.cart-item{display:flex;flex-wrap:wrap;gap:.4rem .6rem;align-items:flex-start}
.cart-item>div{flex:1 1 8rem;min-inline-size:0}
.cart-item img{inline-size:40px;block-size:40px;object-fit:cover;border-radius:6px;flex:none}
.cart .stock{color:#9a3412;font-size:.85rem}
input.qty{inline-size:3.5rem;text-align:center;padding:.4rem .2rem}
.support{font-size:.9rem;color:#57606a;text-align:center;padding-block:.5rem 1.5rem;margin:0}
.hint{font-size:.85rem;margin-block-end:0}
.captcha{font-size:.9rem;margin-block:.5rem}
.back{text-align:center;margin-block:.5rem 0}
.back a{display:inline-block;padding:.6rem 1rem;font-weight:600}
.promo-row{display:flex;gap:.5rem;align-items:stretch}
.promo-row input{flex:1;min-inline-size:0}
.promo-row button{flex:none;background:#e3e8ed;color:#1b1f24}
.ok-note{color:#14532d;font-size:.9rem;margin:.25rem 0 0}
.ok-note:empty{display:none}
dl.totals{display:grid;grid-template-columns:1fr auto;gap:.3rem 1rem;margin:.75rem 0 0}
dl.totals dd{margin:0;text-align:end;white-space:nowrap}
dl.totals .total{font-weight:800;font-size:1.1rem;border-block-start:1px solid #e5e8eb;padding-block-start:.35rem}
`

/** The rest: receipts, messages, actions, print. They come after, so the cascade is unchanged. */
const RESULT_CSS = `
.ok{background:#e6f4ea;color:#14532d}
.btn.secondary,button.secondary{background:#e3e8ed;color:#1b1f24}
dl.kv{display:grid;grid-template-columns:minmax(6rem,auto) 1fr;gap:.4rem 1rem;margin:0}
dl.kv dt{color:#57606a}
dl.kv dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.actions{display:flex;flex-wrap:wrap;gap:.6rem;margin-block-start:1rem}
svg.status{display:block;inline-size:3.25rem;block-size:3.25rem;margin:.25rem auto .75rem}
.message,.outcome{text-align:center}
.message .actions,.outcome .actions,.actions.next{justify-content:center}
.outcome dl.kv{text-align:start;grid-template-columns:minmax(0,2fr) minmax(0,3fr);margin-block:1rem}
.address,.footnote,.terms-text p{white-space:pre-line}
.footnote{font-size:.9rem;color:#57606a;margin-block:1rem 0}
.contacts h2{margin-block-start:0}
@media print{
@page{margin:12mm}
body{background:#fff;font-size:11pt;-webkit-print-color-adjust:exact;print-color-adjust:exact}
.wrap{max-inline-size:none;padding:0}
nav.lang,.actions,.no-print{display:none!important}
.card{box-shadow:none;border:1px solid #c4cbd2;break-inside:avoid}
a{color:inherit;text-decoration:none}
}
`

/** Every customer rule, for every page but the checkout form (the dashboard builds on it). */
export const BASE_CSS = CHECKOUT_CSS + RESULT_CSS
