/** The card page's and inspector's stylesheet, served as a file so a strict CSP needs no inline style. */
export const SIMULATOR_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic",sans-serif;background:#f4f5f7;color:#1b1f24}
.banner{margin:0;padding:.6rem 1rem;background:#ffd84d;color:#1b1f24;font-weight:700;text-align:center;border-bottom:2px solid #b38f00}
main{max-width:34rem;margin:0 auto;padding:1rem}
main.wide{max-width:72rem}
h1{font-size:1.4rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.card{background:#fff;border:1px solid #d5d9de;border-radius:.5rem;padding:1rem;margin-bottom:1rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{color:#4a525c}dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.amount{font-size:1.6rem;font-weight:800;overflow-wrap:normal}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem;border:1px solid #7a828c;border-radius:.35rem;background:#fff;color:inherit}
input:focus,button:focus,a:focus{outline:3px solid #1a5fb4;outline-offset:2px}
button{font:inherit;font-weight:700;padding:.7rem 1rem;border-radius:.35rem;border:1px solid #0b4f8a;background:#0b5cad;color:#fff;width:100%;margin-top:1rem;cursor:pointer}
button.secondary{background:#fff;color:#0b4f8a}
.actions{display:grid;gap:.5rem}
.error{color:#8a1010;background:#fdecec;border:1px solid #d99;border-radius:.35rem;padding:.5rem .75rem;font-weight:600}
.hint{color:#4a525c;font-size:.9rem}
table{border-collapse:collapse;width:100%;font-size:.9rem;background:#fff}
th,td{border:1px solid #d5d9de;padding:.35rem .5rem;text-align:start;vertical-align:top}
caption{text-align:start;font-weight:700;padding:.25rem 0}
.scroll{overflow-x:auto}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85em;overflow-wrap:anywhere}
nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:.5rem 0}
pre{overflow-x:auto}
td code{overflow-wrap:break-word}
a{color:#0b4f8a}
.outcome-ok{color:#0a5a1e}.outcome-ko{color:#8a1010}
@media (min-width:40rem){.actions{grid-template-columns:1fr 1fr}}
@media (max-width:29.99rem){dl{grid-template-columns:1fr;gap:0}dd{margin-bottom:.5rem}}
`
