/** Studio's stylesheet: plain CSS, system fonts, visible focus, readable contrast. */
// biome-ignore lint/complexity/noUselessStringRaw: browser code kept verbatim (regex escapes stay as written)
export const STUDIO_CSS = String.raw`
:root { color-scheme: light dark; --fg: #1a1a1a; --bg: #fafafa; --muted: #555; --line: #c8c8c8;
  --panel: #fff; --accent: #0b57d0; --ok: #146c2e; --warn: #8a4b00; --bad: #b3261e; --cut: #eee; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececec; --bg: #161616; --muted: #b0b0b0;
  --line: #444; --panel: #202020; --accent: #8ab4f8; --ok: #6dd58c; --warn: #ffb870; --bad: #ff8a80; --cut: #2a2a2a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans KR", "Apple SD Gothic Neo", sans-serif;
  color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
.skip { position: absolute; left: -9999px; top: 0; background: var(--panel); padding: .5rem; }
.skip:focus { left: .5rem; z-index: 10; }
header { display: flex; align-items: baseline; gap: 1rem; padding: .75rem 1rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header h1 { font-size: 1.25rem; margin: 0; }
header .agent { color: var(--muted); }
header .spacer { flex: 1; }
main { padding: 1rem; display: grid; gap: 1rem; }
section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; min-width: 0; }
h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
h3 { font-size: .95rem; margin: 1rem 0 .35rem; }
.layout { display: grid; gap: 1rem; grid-template-columns: minmax(14rem, 1fr) minmax(20rem, 2fr) minmax(22rem, 2.2fr); align-items: start; }
@media (max-width: 1100px) { .layout { grid-template-columns: 1fr; } }
label { font-weight: 600; }
input, select, textarea, button { font: inherit; color: inherit; }
input[type=text], input[type=password], input[type=number], select, textarea {
  background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .35rem .5rem; max-width: 100%; }
textarea { width: 100%; min-height: 4.5rem; resize: vertical; }
button { background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: .4rem .8rem; cursor: pointer; }
@media (prefers-color-scheme: dark) { button { color: #111; } }
button.secondary { background: transparent; color: var(--accent); border: 1px solid var(--accent); }
button:disabled { opacity: .55; cursor: default; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: .35rem 0; }
.hint { color: var(--muted); font-size: .88rem; margin: .25rem 0; }
.status { min-height: 1.5rem; margin: 0; }
.status.error { color: var(--bad); }
.status.ok { color: var(--ok); }
ul.threads { list-style: none; padding: 0; margin: .5rem 0; }
ul.threads li { margin: .15rem 0; }
ul.threads button { width: 100%; text-align: left; background: transparent; color: var(--fg); border: 1px solid var(--line); }
ul.threads button[aria-current=true] { border-color: var(--accent); border-width: 2px; }
ul.threads .meta { display: block; color: var(--muted); font-size: .82rem; }
.transcript { display: flex; flex-direction: column; gap: .4rem; max-height: 28rem; overflow: auto; padding: .25rem; margin: 0; list-style: none; }
.msg { border: 1px solid var(--line); border-radius: 6px; padding: .35rem .55rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg.human { align-self: flex-end; max-width: 90%; }
.msg.ai, .msg.tool { align-self: flex-start; max-width: 90%; }
.msg.cut { background: var(--cut); opacity: .8; }
.msg .who { display: block; font-size: .8rem; color: var(--muted); font-weight: 600; }
.badge { display: inline-block; font-size: .75rem; border: 1px solid currentColor; border-radius: 999px; padding: 0 .45rem; margin-left: .35rem; }
.badge.sent { color: var(--ok); }
.badge.cut { color: var(--muted); }
dl.signals { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: 0; }
dl.signals dt { font-family: ui-monospace, monospace; }
dl.signals dd { margin: 0; font-weight: 700; font-family: ui-monospace, monospace; }
code, pre, output.command { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .88rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--bg); border: 1px solid var(--line); padding: .5rem; border-radius: 4px; max-height: 14rem; overflow: auto; }
ul.hints { margin: .25rem 0; padding-left: 1.2rem; }
ul.hints li { color: var(--warn); margin: .2rem 0; }
table { border-collapse: collapse; width: 100%; font-size: .88rem; }
th, td { border-bottom: 1px solid var(--line); text-align: left; padding: .25rem .35rem; vertical-align: top; }
tr.cut td { background: var(--cut); color: var(--muted); }
.config-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .75rem; }
.field { border: 1px solid var(--line); border-radius: 6px; padding: .5rem; }
.field .source { font-size: .8rem; color: var(--muted); }
.field .source b { font-family: ui-monospace, monospace; }
.field .error { color: var(--bad); font-size: .85rem; margin: .2rem 0 0; }
.field input[aria-invalid=true], .field select[aria-invalid=true] { border-color: var(--bad); border-width: 2px; }
fieldset { border: 1px solid var(--line); border-radius: 6px; }
output.command { display: block; padding: .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); overflow-wrap: anywhere; }
[hidden] { display: none !important; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
