import { BASE_CSS } from '../styles.js'

/**
 * Phones. `table.stack` is the dashboard's one table pattern (StackTable and Cell in parts.tsx):
 * below 48rem each row becomes a card, a grid of its cells with each cell's `data-label` above its
 * value; the header row stays for screen readers, only visually hidden; `td.wide` spans the card.
 * Below 40rem key/value lists stack and filters fill the width.
 */
const PHONE_CSS = `
@media (max-width:48rem){
table.stack,table.stack tbody,table.stack td{display:block}
table.stack thead{position:absolute;inline-size:1px;block-size:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.stack tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(7rem,1fr));gap:.6rem 1rem;padding:.75rem;border:1px solid #d0d7de;border-radius:10px;margin-block-end:.75rem}
table.stack td{padding:0;border:0;text-align:start;white-space:normal;overflow-wrap:anywhere;min-inline-size:0}
table.stack td[data-label]::before{content:attr(data-label);display:block;font-size:.8rem;font-weight:600;color:#57606a}
table.stack td:first-child,table.stack td.wide{grid-column:1/-1}
table.stack .badge{white-space:normal}
}
@media (max-width:40rem){
.wrap{padding:.75rem}
.card{padding:1rem .85rem}
dl.kv{grid-template-columns:minmax(0,1fr);gap:0}
dl.kv dd{margin-block-end:.6rem}
.filters>div{flex:1 1 9rem;min-inline-size:0}
.filters select,.filters input{inline-size:100%;max-inline-size:none}
.filters button{flex:1 1 100%}
}
`

/**
 * The till (till-page.tsx): a big keypad and amount; a sale's screen shows the panel of its
 * `data-state`. Every key, button and link is a 44 px tap target at least. The shift report
 * prints without the header and the form.
 */
const TILL_CSS = `
#till{max-inline-size:40rem;margin-inline:auto}
.vh{position:absolute;inline-size:1px;block-size:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
#till .amount{font-size:2.4rem;font-weight:700;text-align:end;direction:ltr;font-variant-numeric:tabular-nums;padding:.5rem .75rem;inline-size:100%}
.keypad{display:grid;grid-template-columns:repeat(3,1fr);gap:.5rem;margin:.75rem 0 1rem;padding:0;border:0;direction:ltr}
.keypad button{font-size:1.8rem;padding:.9rem 0;min-block-size:3.6rem;background:#eef1f4;color:#1b1f24;border:1px solid #c9d1d9}
.keypad button.fn{font-size:1.2rem;background:#fff}
.keypad button.clear{grid-column:1/-1;min-block-size:2.75rem;padding:.4rem 0}
#till #note{inline-size:100%}
button.charge{inline-size:100%;font-size:1.5rem;padding:1rem}
.presets{display:flex;flex-wrap:wrap;gap:.5rem;border:0;padding:0;margin:0 0 1rem}
.presets legend{font-weight:600;margin-block-end:.25rem}
button.preset{background:#fff;color:#1b1f24;border:1px solid #c9d1d9;font-weight:600;padding:.6rem .8rem;min-block-size:2.75rem}
button.preset .price{font-weight:400;color:#57606a}
button.preset .qty{color:#0b5cad}
.till-links{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;margin-block-start:1rem}
.till-links a,.report-tools a{display:inline-flex;align-items:center;min-block-size:2.75rem}
.st{display:none;text-align:center}
#till[data-state=waiting] .st-open,#till[data-state=paying] .st-open,#till[data-state=declined] .st-open,
#till[data-state=waiting] [data-st=waiting],#till[data-state=paying] [data-st=paying],#till[data-state=paid] [data-st=paid],
#till[data-state=declined] [data-st=declined],#till[data-state=canceled] [data-st=canceled],#till[data-state=expired] [data-st=expired]{display:block}
.qr svg{inline-size:min(86vw,62vh,28rem);block-size:auto;display:block;margin:0 auto}
.sale-amount{font-size:2.2rem;font-weight:700;margin:.25rem 0}
.sale-url{font-size:.95rem;word-break:break-all}
.st h2{font-size:1.6rem;margin:.5rem 0}
.st h2:focus{outline:none}
section[data-st=paid]{background:#e6f4ea;color:#14532d;border-radius:12px;padding:1.5rem 1rem}
section[data-st=paid] h2{font-size:2.6rem}
section[data-st=declined]{background:#fdecea;color:#7a1d14;border-radius:12px;padding:1rem}
dl.sale-facts{display:grid;grid-template-columns:auto auto;justify-content:center;gap:.25rem 1rem;text-align:start;margin:1rem 0}
dl.sale-facts dt{font-weight:600}
dl.sale-facts dd{margin:0}
.sale-actions{display:flex;flex-wrap:wrap;justify-content:center;gap:.75rem;margin:1rem 0}
.sale-actions .btn,.sale-actions button{font-size:1.2rem;padding:.8rem 1.4rem}
@media print{header,.sale-actions{display:none}}
.report-tools{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end}
.report-tools label{margin:0 0 .25rem}
.report-tools input{inline-size:auto}
.report-tools button{min-block-size:2.75rem}
@media print{header,.report-tools,.no-print{display:none}table.stack{font-size:.9rem}.card{border:0;padding:0}}
`

/**
 * The signed-in header (layout.tsx): one row of the merchant, the current page's name and the menu
 * button; the open menu covers the page below the row, one entry a line, 44 px tall, the current
 * one marked on its inline-start side (the right in Arabic). From 56.25rem (900 px) the list is a
 * row and the button and page name are hidden, where `::details-content` lets a closed
 * `<details>` show its content; a browser without it keeps the menu button at every width.
 */
const MENU_CSS = `
.wrap.top{position:relative}
.where{display:flex;flex-direction:column;align-items:flex-start;flex:1 1 0;min-inline-size:0;line-height:1.3}
.where>span{max-inline-size:100%}
.where .merchant,.where .here{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.where .merchant{font-size:.85rem;font-weight:600;color:#57606a}
.where .here{font-weight:700;font-size:1.05rem}
details.menu{flex:none}
details.menu>summary{display:flex;align-items:center;gap:.45rem;min-block-size:2.75rem;margin:0;padding:.4rem .85rem;border:1px solid #8c959f;border-radius:10px;background:#fff;font-weight:700;list-style:none;user-select:none}
details.menu>summary::-webkit-details-marker{display:none}
details.menu>summary svg{inline-size:1.25rem;block-size:1.25rem;flex:none}
details.menu>summary:focus-visible{outline:3px solid #2f81f7;outline-offset:1px}
details.menu[open]>summary{background:#e3e8ed}
.menu-panel{position:absolute;z-index:20;inset-inline:0;inset-block-start:100%;max-block-size:calc(100dvh - 5rem);overflow-y:auto;background:#fff;border-block:1px solid #d0d7de;box-shadow:0 10px 20px rgba(0,0,0,.12);padding:.5rem .75rem .75rem}
nav.main ul{list-style:none;margin:0;padding:0}
nav.main a,nav.main button.link{display:flex;align-items:center;justify-content:flex-start;inline-size:100%;min-block-size:2.75rem;padding:.5rem .75rem;border-radius:8px;text-decoration:none}
nav.main a[aria-current]{font-weight:700;color:inherit;background:#e3e8ed;border-inline-start:4px solid #0b5cad;padding-inline-start:calc(.75rem - 4px)}
nav.main li.out{margin-block-start:.35rem;padding-block-start:.35rem;border-block-start:1px solid #e5e8eb}
nav.main form.inline{display:block}
.menu-panel nav.lang{margin:.35rem 0 0;padding-block-start:.35rem;border-block-start:1px solid #e5e8eb;flex-wrap:wrap;font-size:1rem}
.menu-panel nav.lang a{padding:.7rem .9rem}
@media (min-width:56.25rem){@supports selector(::details-content){
details.menu>summary,.where .here{display:none}
details.menu,details.menu::details-content,.menu-panel{display:contents}
.where{flex:0 1 auto}
.where .merchant{font-size:1.05rem;font-weight:700;color:inherit;white-space:normal;overflow-wrap:anywhere}
nav.main ul{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem}
nav.main a,nav.main button.link{display:inline;inline-size:auto;min-block-size:0;padding:0;border-radius:0;text-decoration:underline}
nav.main a[aria-current]{background:none;border:0;padding:0;text-decoration:none}
nav.main li.out{margin:0;padding:0;border:0}
nav.main form.inline{display:inline}
.menu-panel nav.lang{margin:0;margin-inline-start:auto;padding:0;border:0;font-size:.9rem}
.menu-panel nav.lang a{padding:.5rem .55rem}
}}
@media print{details.menu{display:none}}
`

/**
 * The dashboard's stylesheet: the customer pages' base with a wider column, tables, badges and
 * the form's sections, then the phone rules. A pricing section whose radio is not chosen folds away
 * where `:has()` is supported; elsewhere every section stays visible and the radio still decides.
 */
export const DASHBOARD_CSS = `${BASE_CSS}
/* Every field, whatever its type says, or when it says none: the base's look, the page's 16 px
   (iOS zooms into a smaller field) and a 44 px tap target. Before the rules that narrow some. */
input:not([type]),input[type=date],input[type=time],input[type=month],input[type=week]{inline-size:100%;font:inherit;padding:.7rem .75rem;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit}
input:not([type=checkbox],[type=radio],[type=hidden],[type=file],[type=submit],[type=button],[type=color],[type=range]),select,textarea{font-size:max(1em,16px);min-block-size:2.75rem}
.wrap{max-inline-size:72rem}
.wrap.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding-block-end:.25rem}
main.wrap{padding-block-start:0}
form.inline{display:inline}
button.link{background:none;color:#0b5cad;padding:0;font-weight:400;text-decoration:underline;border-radius:0}
button.small,.btn.small{padding:.45rem .8rem;font-size:.95rem}
button.danger{background:#b42318}
.head{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem}
.table-wrap{overflow-x:auto}
.cart-table input.qty{inline-size:5rem;min-inline-size:0}
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
.url-row input{min-inline-size:0}
.filters select{max-inline-size:20rem}
.card>h2:first-child{margin-block-start:0}
textarea.code{font:.85rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;min-block-size:7.5rem}
table.stack td{overflow-wrap:anywhere}
/* Overview: figures, the charts (colours by class: the CSP allows no style attribute), lists */
.ov-figures{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,8rem),1fr));gap:.6rem}
.ov-figures li{display:flex;flex-direction:column;gap:.15rem;padding:.75rem;border:1px solid #e5e8eb;border-radius:10px;min-inline-size:0}
.ov-figures .label{color:#57606a;font-size:.9rem}
.ov-figures .big{font-size:1.3rem;line-height:1.25;overflow-wrap:anywhere;unicode-bidi:isolate}
.ov-charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(17rem,1fr));gap:1rem 1.5rem}
.ov-charts figure{margin:0;min-inline-size:0}
.ov-charts figcaption{font-weight:700;margin-block-end:.25rem}
svg.chart{display:block;inline-size:100%;block-size:auto}
svg.chart text{font-size:19px;fill:#57606a}
@media (max-width:30rem){svg.chart text{font-size:26px}.ov-figures li[data-figure=pending]{grid-column:1/-1}.ov-figures li{padding:.6rem}.ov-figures .big{font-size:1.05rem}}
svg.chart .grid{stroke:#e5e8eb;stroke-width:1}
svg.chart .base{stroke:#8c959f;stroke-width:1.5}
.bar.money{fill:#0b5cad}
.bar.paid,.swatch.paid{fill:#2e7d32;background:#2e7d32}
.bar.failed,.swatch.failed{fill:#c62828;background:#c62828}
.bar.other,.swatch.other{fill:#9aa5b1;background:#9aa5b1}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;margin:.5rem 0 0;padding:0;font-size:.9rem}
.legend li{display:inline-flex;align-items:center;gap:.35rem}
.swatch{display:inline-block;inline-size:.8rem;block-size:.8rem;border-radius:2px}
.ov-numbers{margin-block-start:1rem}
.ov-numbers summary{cursor:pointer;font-weight:600}
.ov-table{font-size:.85rem;max-inline-size:48rem}
.ov-table th,.ov-table td{padding-inline:.2rem}
.ov-table tbody th{font-weight:400;white-space:nowrap}
.ov-two{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:0 1rem}
.ov-list{margin:0;padding:0;list-style:none}
.ov-list li{display:flex;justify-content:space-between;align-items:baseline;gap:.75rem;padding:.45rem 0;border-block-end:1px solid #e5e8eb}
.ov-list li>span:first-child{min-inline-size:0;overflow-wrap:anywhere}
.ov-list .num{white-space:nowrap;font-weight:600}
.ov-list .sub{display:block;font-size:.85rem}
.ov-empty{padding-block:.5rem}
/* Search box (payments and links pages) */
input[type=search]{inline-size:100%;block-size:auto;margin:0;font:inherit;padding:.5rem .75rem;border:1px solid #8c959f;border-radius:8px;background:#fff;color:inherit}
.filters .search{flex:1 1 14rem}
.filters .search input{inline-size:100%}
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
/* In Arabic a value set left-to-right, or by its own text (a lone "—" reads as left-to-right), still
   lines up on the right with the others */
[dir=rtl] dl.kv dd.ltr,[dir=rtl] dl.kv dd[dir=auto]{text-align:right}
@media (max-width:40rem){.pd dl.kv{grid-template-columns:minmax(0,1fr);gap:0}.pd dl.kv dd{margin-block-end:.5rem}}
/* Webhook endpoints: addresses that break anywhere, the event lists, the secret shown once, the
   delivery log's attempts, and the banner every page shows while an endpoint is failing */
.wh-url{overflow-wrap:anywhere;word-break:break-all}
h1.wh-url{font-size:1.15rem;margin:0}
table.stack .sub{display:block;font-size:.85rem}
ul.wh-types,ul.audit-detail{list-style:none;margin:0;padding:0}
ul.audit-detail li{overflow-wrap:anywhere;font-size:.85rem}
/* The audit log: Time, Who, What, On and Address have widths of their own and wrap at spaces
   only; what has no space (an e-mail, an id, an IPv6 address) stays on one line, cut with an
   ellipsis at the column's end (the whole value in its title). Detail takes the rest; below
   that, the table scrolls sideways in its frame. On a phone each row is a card (above). */
table.stack td:is(.au-who,.au-what,.au-target,.au-address){overflow-wrap:break-word}
td.au-time{inline-size:8rem}
td.au-who{inline-size:11rem}
td.au-what{inline-size:8rem}
td.au-target{inline-size:7.5rem}
td.au-address{inline-size:8.5rem}
td.au-target,td.au-address{font-size:.9rem}
td:is(.au-who,.au-target,.au-address) .clip{display:block;max-inline-size:11rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
td.au-target .clip{max-inline-size:7.5rem}
td.au-address .clip{max-inline-size:8.5rem}
td.au-detail{min-inline-size:16rem}
[dir=rtl] td .clip[dir=ltr]{text-align:right}
@media (max-width:48rem){table.stack td:is(.au-time,.au-who,.au-what,.au-target,.au-address,.au-detail){inline-size:auto;min-inline-size:0}td:is(.au-who,.au-target,.au-address) .clip{max-inline-size:100%}}
ul.wh-types code,label.check code{font-size:.85rem}
.wh-secret{border:1px solid #d0d7de;border-radius:10px;padding:.75rem;margin-block:1rem;background:#f6f8fa}
.wh-secret h2{margin-block:0 .5rem;font-size:1.05rem}
.wh-rotate,.wh-delete{margin-block-start:1rem}
.wh-rotate p{margin-block:0 .4rem}
.wh-delete summary{color:#b42318;font-weight:600}
ol.wh-attempts{margin:0;padding-inline-start:1.25rem}
ol.wh-attempts li{padding-block:.25rem;overflow-wrap:anywhere}
.wh-more details{margin-block:0 .4rem}
.wh-more details summary{margin-block:0 .25rem}
.wh-banner a{color:inherit;font-weight:700}
.wh-banner bdi{display:block;margin-block:.15rem}
[dir=rtl] .wh-banner bdi{text-align:left}
.wh-id{font-size:.85rem;overflow-wrap:anywhere}
.qr-enrol svg{inline-size:12rem;block-size:12rem;display:block;margin-block:.5rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow-wrap:anywhere;direction:ltr;unicode-bidi:isolate}
ul.codes{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(8rem,1fr));gap:.4rem}
.sr-only{position:absolute;inline-size:1px;block-size:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.people-acts{display:flex;flex-wrap:wrap;gap:.4rem}
.people-acts select{inline-size:auto}
.logo-preview{margin:0 0 1rem}.logo-preview img{display:block;block-size:auto;max-block-size:6rem;inline-size:auto;max-inline-size:100%;border:1px solid #d0d7de;border-radius:6px;padding:.25rem;background:#fff}
input[type=file]{max-inline-size:100%}
textarea[aria-invalid=true],select[aria-invalid=true]{border-color:#b42318;border-width:2px}
@media (min-width:48.0625rem){ul.wh-types code,#deliveries td code,#deliveries td a{white-space:nowrap}#deliveries td.wh-more{inline-size:22rem}}
${MENU_CSS}${TILL_CSS}${PHONE_CSS}`
