/**
 * The till's script, sent inline under the page's nonce. The keypad and the keyboard enter the
 * amount cents first, as a till does (1 2 5 0 5 0 shows 1,250.50), in Western or Eastern Arabic
 * digits; Charge sends it as plain decimal text. On a sale's screen it follows the sale: an
 * EventSource where the server streams (Node), else the JSON status every second; each change
 * redraws the screen from the same object the server rendered it from, with a short sound.
 */
export const TILL_SCRIPT = `(function(){
var root=document.getElementById('till');if(!root)return;
var amount=document.getElementById('amount');
if(amount){
  var d=root.dataset,digits=(amount.value.match(/\\d/g)||[]).join('').replace(/^0+/,'');
  if(amount.value&&!/[.,]\\d{2}\\s*\\D*$/.test(amount.value))digits+='00';
  var show=function(){
    var c=digits.padStart(3,'0'),whole=c.slice(0,-2).replace(/^0+(?=\\d)/,''),out='';
    for(var i=0;i<whole.length;i++){if(i&&(whole.length-i)%3===0)out+=d.group;out+=whole[i]}
    amount.value=digits?out+d.dec+c.slice(-2)+d.suffix:'';
  };
  var key=function(k){
    if(k==='back')digits=digits.slice(0,-1);
    else if(k==='clear')digits='';
    else if(/^\\d+$/.test(k)&&digits.length+k.length<=12)digits=(digits+k).replace(/^0+/,'');
    show();
  };
  var west=function(ch){var n=ch.charCodeAt(0);
    if(n>=0x660&&n<=0x669)return String(n-0x660);if(n>=0x6f0&&n<=0x6f9)return String(n-0x6f0);
    return /^\\d$/.test(ch)?ch:null};
  document.querySelectorAll('[data-key]').forEach(function(b){
    b.addEventListener('click',function(){key(b.dataset.key)})});
  // The keypad is the keyboard: the phone's own stays down unless the field is typed into.
  amount.inputMode='none';
  document.addEventListener('keydown',function(e){
    if(e.target===document.body&&!e.ctrlKey&&!e.metaKey&&!e.altKey&&e.key.length===1&&west(e.key)!==null){key(west(e.key));e.preventDefault()}});
  amount.addEventListener('keydown',function(e){
    if(e.ctrlKey||e.metaKey||e.altKey||e.key==='Tab'||e.key==='Enter')return;
    var w=e.key.length===1?west(e.key):null;
    if(w!==null)key(w);else if(e.key==='Backspace')key('back');else if(e.key==='Escape'||e.key==='Delete')key('clear');
    else if(e.key.length!==1)return;
    e.preventDefault();
  });
  amount.addEventListener('beforeinput',function(e){
    if(e.inputType==='insertText'||e.inputType==='insertReplacementText'||e.inputType==='insertFromPaste'){
      var t=(e.data||'').split('').map(west).join('');if(t)key(t);e.preventDefault()}
    else if(e.inputType.indexOf('delete')===0){key('back');e.preventDefault()}
  });
  // A preset adds its price to the amount and counts itself in the note (2× Coffee, 1× Croissant).
  var note=document.getElementById('note'),counts={},order=[],auto='';
  document.querySelectorAll('button.preset').forEach(function(b){
    b.addEventListener('click',function(){
      var n=b.dataset.name,total=BigInt(digits||'0')+BigInt(b.dataset.price);
      if(String(total).length>12)return;
      digits=String(total);show();
      if(!counts[n]){counts[n]=0;order.push(n)}counts[n]++;
      b.querySelector('.qty').textContent='×'+counts[n];
      var text=order.map(function(k){return counts[k]+'× '+k}).join(', ');
      if(note&&(note.value===''||note.value===auto)){note.value=text.slice(0,100);auto=note.value}
    })});
  var clearCounts=function(){counts={};order=[];document.querySelectorAll('button.preset .qty').forEach(function(q){q.textContent=''});
    if(note&&note.value===auto)note.value='';auto=''};
  document.querySelectorAll('[data-key=clear]').forEach(function(b){b.addEventListener('click',clearCounts)});
  amount.form.addEventListener('submit',function(){
    if(digits){var c=digits.padStart(3,'0');amount.value=c.slice(0,-2)+'.'+c.slice(-2)}
  });
  show();
}
var sale=root.dataset.sale;if(!sale)return;
var state=root.dataset.state,finals={paid:1,canceled:1,expired:1},audio;
var beep=function(ok){try{
  audio=audio||new (window.AudioContext||window.webkitAudioContext)();audio.resume();
  (ok?[660,880]:[330,220]).forEach(function(f,i){
    var o=audio.createOscillator(),g=audio.createGain(),t=audio.currentTime+i*0.18;
    o.frequency.value=f;g.gain.setValueAtTime(0.2,t);g.gain.exponentialRampToValueAtTime(0.001,t+0.16);
    o.connect(g);g.connect(audio.destination);o.start(t);o.stop(t+0.17)})}catch(e){}};
document.addEventListener('pointerdown',function(){try{audio=audio||new (window.AudioContext||window.webkitAudioContext)()}catch(e){}},{once:true});
var apply=function(v){
  if(!v||v.id!==sale)return;
  root.querySelectorAll('[data-f]').forEach(function(el){var x=v[el.dataset.f];el.textContent=x==null?'':String(x)});
  if(v.state!==state){
    var was=state;state=v.state;root.dataset.state=state;
    root.dataset.changedAt=String(Date.now());
    if(state==='paid')beep(true);else if(state==='declined')beep(false);
    var h=root.querySelector('[data-st="'+state+'"] h2');if(h&&was)h.focus();
  }
  if(finals[state])stop();
};
var timer,source,stop=function(){clearTimeout(timer);if(source)source.close()};
var poll=function(){
  fetch(root.dataset.statusUrl,{headers:{accept:'application/json'},credentials:'same-origin'})
    .then(function(r){return r.ok?r.json():null}).then(apply).catch(function(){})
    .then(function(){if(!finals[state])timer=setTimeout(poll,1000)});
};
if(finals[state])return;
if(root.dataset.live==='stream'&&window.EventSource){
  var failures=0;source=new EventSource(root.dataset.eventsUrl);
  source.addEventListener('sale',function(e){failures=0;try{apply(JSON.parse(e.data))}catch(x){}});
  source.onerror=function(){if(++failures>=3){source.close();source=null;poll()}};
}else poll();
})()`
