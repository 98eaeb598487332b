/**
 * The checkout's order summary, live (views/checkout-summary.tsx): the subtotal, the discount, the
 * fee and the total follow the amount and the cart's quantities as they are typed, and the Pay
 * button says the total. "Apply" asks `/l/:slug/promo?code=` for the code's terms and shows the
 * discount without a reload. The page works without it: the server prices everything, and "Apply"
 * then submits the form.
 *
 * One constant text for every page (one CSP hash): it reads only data attributes. Its inputs are
 * the cart's `input[name^="qty_"][data-unit-price]` and `[data-line-total]` (centimes), the
 * `#amount` field, and `#order-summary`'s `data-subtotal`, `data-fee-percent` (hundredths),
 * `data-discount-percent` / `data-discount-amount` / `data-min-amount` / `data-code` (the applied
 * code's terms), `data-card-min`, the labels and the page's separators. It computes as the
 * server does (src/payments/order-promo.ts, src/domain/customer-fee.ts): the percent rounded down
 * to the centime, the discount never below the card's minimum, the fee rounded half up.
 *
 * It registers on the document (after the Pay button's own script on #amount, which it follows)
 * and runs again once the page is read (DOMContentLoaded), after every inline script.
 */
export const ORDER_TOTAL_SCRIPT =
  "(function(){var s=document.getElementById('order-summary');if(!s)return;" +
  "function d(n){return s.getAttribute('data-'+n)||''}function num(v){var n=parseInt(v,10);return isNaN(n)?null:n}" +
  "function fmt(c){return String(Math.floor(c/100)).replace(/\\B(?=(\\d{3})+(?!\\d))/g,d('group'))+d('decimal')+('0'+c%100).slice(-2)+d('unit')}" +
  "function parse(v){v=v.replace(/[\\u0660-\\u0669\\u06f0-\\u06f9]/g,function(x){var c=x.charCodeAt(0);return String(c-(c>=0x6f0?0x6f0:0x660))}).replace(/\\u066b/g,',').replace(/[\\s\\u066c]/g,'').replace(',','.');" +
  "var m=/^(\\d{1,9})(?:\\.(\\d{1,2}))?$/.exec(v);return m?Number(m[1])*100+Number(((m[2]||'')+'00').slice(0,2)):null}" +
  "function sub(){var q=document.querySelectorAll('input[name^=\"qty_\"][data-unit-price]'),f=document.querySelectorAll('[data-line-total]'),t=0,i,n;" +
  "if(q.length||f.length){for(i=0;i<q.length;i++){n=parseInt(q[i].value,10);if(!(n>=0))return null;t+=n*(num(q[i].getAttribute('data-unit-price'))||0)}" +
  "for(i=0;i<f.length;i++)t+=num(f[i].getAttribute('data-line-total'))||0;return t}" +
  "var a=document.getElementById('amount');if(a&&a.tagName==='INPUT')return parse(a.value);return num(d('subtotal'))}" +
  "function out(n,v){var e=s.querySelector('[data-out=\"'+n+'\"]');if(e)(e.querySelector('bdi')||e).textContent=v}" +
  "function up(){var t=sub(),p=num(d('discount-percent')),o=num(d('discount-amount')),m=num(d('min-amount')),c=0,i;" +
  "if(t!==null&&(p!==null||o!==null)&&!(m!==null&&t<m)){c=p!==null?Math.floor(t*p/100):o;c=Math.max(0,Math.min(c,t-(num(d('card-min'))||0)))}" +
  "var f=t===null?0:Math.floor(((t-c)*(num(d('fee-percent'))||0)+5000)/10000),z=t===null?null:t-c+f,r=s.querySelectorAll('[data-row=\"discount\"]');" +
  "for(i=0;i<r.length;i++)r[i].hidden=!(c>0);out('subtotal',t===null?'\\u2014':fmt(t));out('discount','\\u2212'+fmt(c));" +
  "out('discount-label',d('discount-label').replace('{code}',d('code')));out('fee',fmt(f));out('total',z===null?'\\u2014':fmt(z));" +
  "var b=document.querySelector('button.pay>span:last-child');if(b&&z!==null)b.textContent=d('pay').replace('{amount}',fmt(z));return c}" +
  "function ev(e){var n=e.target&&e.target.name||'';if(n==='amount'||n.indexOf('qty_')===0)up()}" +
  "document.addEventListener('input',ev);document.addEventListener('change',ev);document.addEventListener('DOMContentLoaded',up);" +
  "var k=s.querySelector('button[name=\"apply_promo\"]'),x=document.getElementById('promo_code'),w=document.getElementById('promo-status');" +
  'if(!k||!x||!window.fetch||!window.JSON)return;' +
  "function terms(j){var g=j.ok&&j.code?j:{};s.setAttribute('data-code',g.code||'');s.setAttribute('data-discount-percent',g.percent_off==null?'':g.percent_off);" +
  "s.setAttribute('data-discount-amount',g.amount_off==null?'':g.amount_off);s.setAttribute('data-min-amount',g.min_amount==null?'':g.min_amount)}" +
  "function err(m){var e=document.getElementById('promo_code-err');if(!m){if(e)e.parentNode.removeChild(e);x.removeAttribute('aria-invalid');x.removeAttribute('aria-describedby');return}" +
  "if(!e){e=document.createElement('p');e.className='err';e.id='promo_code-err';k.parentNode.parentNode.insertBefore(e,k.parentNode.nextSibling)}" +
  "e.textContent=m;x.setAttribute('aria-invalid','true');x.setAttribute('aria-describedby','promo_code-err')}" +
  "k.addEventListener('click',function(e){e.preventDefault();k.disabled=true;" +
  "fetch(d('terms-url')+'?code='+encodeURIComponent(x.value.trim())+'&lang='+document.documentElement.lang,{headers:{accept:'application/json'},credentials:'same-origin'})" +
  ".then(function(r){return r.json()}).then(function(j){terms(j);err(j.ok?'':j.message);var c=up();" +
  "if(w)w.textContent=j.ok&&c>0?d('applied-text').replace('{code}',j.code).replace('{discount}',fmt(c)):''})" +
  "['catch'](function(){}).then(function(){k.disabled=false})})})()"
