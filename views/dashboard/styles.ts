import { BASE_CSS } from '../styles.js'

/**
 * The dashboard's stylesheet: the customer pages' base with a wider column, tables, badges and
 * the form's sections. A pricing section whose radio is not chosen folds away where `:has()` is
 * supported; elsewhere every section stays visible and the radio still decides.
 */
export const DASHBOARD_CSS = `${BASE_CSS}
.wrap{max-inline-size:72rem}
.wrap.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding-block-end:.25rem}
main.wrap{padding-block-start:0}
nav.main{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem}
nav.main a[aria-current]{font-weight:700;color:inherit;text-decoration:none}
form.inline{display:inline}
button.link{background:none;color:#0b5cad;padding:0;font-weight:400;text-decoration:underline;border-radius:0}
button.small,.btn.small{padding:.45rem .8rem;font-size:.95rem}
button.danger{background:#b42318}
.head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem}
.table-wrap{overflow-x:auto}
.badge{display:inline-block;padding:.1rem .55rem;border-radius:999px;font-size:.8rem;font-weight:700;background:#e7ecf0;color:#1b1f24;white-space:nowrap}
.badge.active,.badge.paid{background:#e6f4ea;color:#14532d}
.badge.inactive,.badge.failed,.badge.canceled,.badge.error,.badge.beyond{background:#fdecea;color:#7a1d14}
.badge.expired,.badge.completed,.badge.pending,.badge.initiated{background:#fff3bf;color:#5c4400}
.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end}
.filters label{margin:0 0 .25rem}
.filters select,.filters input{inline-size:auto;padding:.5rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:0 1rem}
fieldset{border:1px solid #d0d7de;border-radius:10px;margin:1rem 0 0;padding:.25rem 1rem 1rem}
legend{font-weight:700;padding-inline:.35rem}
legend label{display:inline-flex;gap:.5rem;align-items:center;margin:0}
fieldset.choice:not(:has(legend input:checked)) .fields{display:none}
textarea{min-block-size:6rem}
textarea.items,input.ltr,.ltr{direction:ltr;unicode-bidi:isolate}
[dir=rtl] input.ltr{text-align:end}
.url-row{display:flex;gap:.5rem;align-items:stretch}
.url-row input{flex:1}
.qr{display:flex;flex-wrap:wrap;gap:1rem;align-items:center}
.qr img{inline-size:12rem;block-size:12rem;background:#fff;border:1px solid #e5e8eb;border-radius:8px}
.pager{display:flex;gap:1rem;margin-block-start:1rem}
.nowrap{white-space:nowrap}
/* Decline reasons in the payments list; the payment's page: history, webhook deliveries, the
   gateway's answers (all fit 360 px) */
.reason{display:block;font-size:.85rem;color:#7a1d14}
ol.timeline,ul.blocks{list-style:none;margin:0;padding:0}
ol.timeline li{display:flex;flex-wrap:wrap;gap:.1rem .75rem;padding:.5rem 0;border-block-end:1px solid #e5e8eb}
ul.blocks li{border-block-end:1px solid #e5e8eb}
pre.raw{max-block-size:24rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem;background:#f6f8fa;padding:.75rem;border-radius:8px}
details summary{cursor:pointer;margin-block:.5rem}
h3{font-size:1rem;margin-block:1rem .25rem}
.pd dl.kv{grid-template-columns:minmax(0,1fr) minmax(0,2fr)}
[dir=rtl] .pd dd.ltr{text-align:right}
@media (max-width:40rem){.pd dl.kv{grid-template-columns:minmax(0,1fr);gap:0}.pd dl.kv dd{margin-block-end:.5rem}}
`
