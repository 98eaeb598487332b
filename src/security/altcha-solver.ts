/**
 * The checkout page's ALTCHA solver, as the text of an inline script for the page's head.
 *
 * Three choices keep it fast on a slow phone (docs/decisions/performance.md, "The captcha on a
 * phone"): the challenge comes in the page itself (`data-challenge` on the form's captcha field),
 * so no second request waits on the network's latency, and one is fetched from `data-url` only
 * when the page's has expired (a page left open for half an hour); the solver starts as soon as
 * the form is parsed; and SHA-256 is computed here, synchronously, in chunks that yield to the
 * page, instead of one `await crypto.subtle.digest` per number (each a round trip to another
 * thread and back: 10,001 numbers took 0.8–1.4 s that way in Chromium with the CPU slowed 6×,
 * 0.2–0.4 s here). The work asked of the browser is the same: on average half of `maxnumber`.
 */

import { SHA256_K } from '../lib/sha256-sync.js'

// SHA-256 of a short byte array (h: 8 words out), FIPS 180-4; W and h reused to allocate nothing.
// Its round constants are the server's own (one copy in the upload).
const SHA256 = `var K=[${SHA256_K.join(',')}],W=new Int32Array(64),h=new Int32Array(8);
function sha(m,l){var n=((l+9+63)>>6)<<4,w=new Int32Array(n),j,o,a,b,c,d,e,f,g,k,x,y,t1,t2;for(j=0;j<l;j++)w[j>>2]|=m[j]<<(24-(j&3)*8);w[l>>2]|=128<<(24-(l&3)*8);w[n-1]=l*8;
h[0]=1779033703;h[1]=-1150833019;h[2]=1013904242;h[3]=-1521486534;h[4]=1359893119;h[5]=-1694144372;h[6]=528734635;h[7]=1541459225;
for(o=0;o<n;o+=16){a=h[0];b=h[1];c=h[2];d=h[3];e=h[4];f=h[5];g=h[6];k=h[7];
for(j=0;j<64;j++){if(j<16)W[j]=w[o+j];else{x=W[j-15];y=W[j-2];W[j]=(((x>>>7)|(x<<25))^((x>>>18)|(x<<14))^(x>>>3))+(((y>>>17)|(y<<15))^((y>>>19)|(y<<13))^(y>>>10))+W[j-7]+W[j-16]|0}
t1=k+(((e>>>6)|(e<<26))^((e>>>11)|(e<<21))^((e>>>25)|(e<<7)))+((e&f)^(~e&g))+K[j]+W[j]|0;t2=(((a>>>2)|(a<<30))^((a>>>13)|(a<<19))^((a>>>22)|(a<<10)))+((a&b)^(a&c)^(b&c))|0;
k=g;g=f;f=e;e=d+t1|0;d=c;c=b;b=a;a=t1+t2|0}
h[0]+=a;h[1]+=b;h[2]+=c;h[3]+=d;h[4]+=e;h[5]+=f;h[6]+=g;h[7]+=k}}`

/**
 * The script: once the form exists, disables the pay button, takes the page's challenge (or
 * fetches one when it is missing or expires within a minute), finds the number whose SHA-256 with
 * the salt is the challenge, fills the hidden field with ALTCHA's payload and enables the button
 * again; says so in the status line either way. The same text for every page (one CSP hash).
 */
export function altchaSolverScript(): string {
  return `(function(){
${SHA256}
function pause(){return new Promise(function(r){var m=new MessageChannel();m.port1.onmessage=r;m.port2.postMessage(0)})}
function own(e){try{var c=JSON.parse(e.getAttribute('data-challenge')),x=/expires=(\\d+)/.exec(c.salt);if(x&&x[1]*1000>Date.now()+60000)return c}catch(_){}return null}
async function run(){var e=document.getElementById('altcha');if(!e)return;var i=e.querySelector('input'),s=e.querySelector('.st'),t=Date.now(),f=e.closest('form'),b=f&&f.querySelector('button[type=submit]');if(b)b.disabled=true;
try{var c=own(e)||await fetch(e.getAttribute('data-url'),{cache:'no-store',credentials:'same-origin'}).then(function(r){return r.json()});if(c.algorithm!=='SHA-256')throw 0;var p=new TextEncoder().encode(c.salt),m=new Uint8Array(p.length+16),T=new Int32Array(8),n,d,j;m.set(p);for(j=0;j<8;j++)T[j]=parseInt(c.challenge.substr(j*8,8),16);
for(n=0;n<=c.maxnumber;n++){d=String(n);for(j=0;j<d.length;j++)m[p.length+j]=d.charCodeAt(j);sha(m,p.length+d.length);
if(h[0]===T[0]&&h[1]===T[1]&&h[2]===T[2]&&h[3]===T[3]&&h[4]===T[4]&&h[5]===T[5]&&h[6]===T[6]&&h[7]===T[7]){i.value=btoa(JSON.stringify({algorithm:c.algorithm,challenge:c.challenge,number:n,salt:c.salt,signature:c.signature,took:Date.now()-t}));s.textContent=e.getAttribute('data-done');if(b)b.disabled=false;return}
if(n%2000===1999)await pause()}}catch(_){}s.textContent=e.getAttribute('data-fail');if(b)b.disabled=false}
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',run);else run()})()`
}
