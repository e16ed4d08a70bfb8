/**
 * The dashboard's stylesheet, compiled into the binary (no CDN, no build step). Colours keep
 * a contrast of at least 4.5:1 on their backgrounds; every control shows a focus ring.
 */
export const STYLE_CSS = `
:root {
  --ink: #1b1f24; --muted: #4a5360; --paper: #ffffff; --panel: #f4f6f8; --line: #c9d1da;
  --accent: #0b57d0; --accent-ink: #ffffff; --danger: #b3261e; --ok: #146c2e; --warn: #7a4f00;
  --focus: #9a4b00; --focus-on-dark: #f5b400;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--paper); line-height: 1.5;
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
header.site :focus-visible { outline-color: var(--focus-on-dark); }
.skip-link { position: absolute; left: -999px; top: 0; padding: .5rem 1rem; background: var(--ink); color: #fff; z-index: 10; }
.skip-link:focus { left: 0; }
header.site { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem 2rem; padding: .75rem 1.5rem;
  background: var(--ink); color: #fff; }
header.site a { color: #fff; }
header.site .brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; }
header.site nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header.site nav a { text-decoration: none; padding: .25rem .1rem; border-bottom: 2px solid transparent; }
header.site nav a[aria-current="page"] { border-bottom-color: #fff; font-weight: 600; }
header.site .who { margin-left: auto; display: flex; align-items: center; gap: .75rem; font-size: .9rem; }
header.site .who button { background: transparent; color: #fff; border: 1px solid #fff; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; }
.lead { color: var(--muted); margin-top: -.5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
.notice { border-left: 4px solid var(--accent); }
.notice.warn { border-left-color: var(--warn); }
.notice.error { border-left-color: var(--danger); }
.notice.ok { border-left-color: var(--ok); }
form.stack { display: grid; gap: .75rem; max-width: 32rem; }
form.inline { display: inline; }
.field { display: grid; gap: .25rem; }
.field.check { display: flex; gap: .5rem; align-items: center; }
label { font-weight: 600; }
.hint { color: var(--muted); font-size: .9rem; font-weight: 400; }
input[type=text], input[type=url], input[type=password], input[type=number], select, textarea {
  font: inherit; padding: .45rem .6rem; border: 1px solid #6b7683; border-radius: 6px; background: #fff; color: var(--ink); width: 100%; }
button, .button { font: inherit; font-weight: 600; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; display: inline-block; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding-bottom: .5rem; }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
.table-wrap { overflow-x: auto; }
.state-active, .status-completed { color: var(--ok); font-weight: 600; }
.state-revoked, .status-failed { color: var(--danger); font-weight: 600; }
.status-cancelled { color: var(--muted); font-weight: 600; }
.status-processing, .status-queued { color: var(--warn); font-weight: 600; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9rem; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .75rem; overflow: auto; max-height: 32rem;
  white-space: pre-wrap; word-break: break-word; }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret output { font-family: ui-monospace, Menlo, Consolas, monospace; background: #fff; border: 1px solid var(--line);
  padding: .45rem .6rem; border-radius: 6px; word-break: break-all; }
.meter-row { display: grid; grid-template-columns: 10rem 1fr auto; gap: .75rem; align-items: center; margin: .5rem 0; }
progress, meter { width: 100%; height: 1.1rem; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 1rem; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; }
.stat .value { font-size: 1.5rem; font-weight: 700; display: block; }
.chart svg { width: 100%; height: auto; max-height: 16rem; }
.chart .bar { fill: var(--accent); }
.chart .rate { fill: none; stroke: var(--ok); stroke-width: 2; }
.chart .axis { stroke: var(--muted); stroke-width: 1; }
.chart text { fill: var(--muted); font-size: 11px; }
.legend { display: flex; gap: 1.5rem; font-size: .9rem; color: var(--muted); }
.legend .swatch { display: inline-block; width: .9rem; height: .9rem; vertical-align: middle; margin-right: .35rem; }
.legend .swatch.bar { background: var(--accent); }
.legend .swatch.rate { background: var(--ok); }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem; }
.side-by-side > section { min-width: 0; }
.rendered { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .25rem 1rem; max-height: 32rem; overflow: auto; }
.rendered img { max-width: 100%; }
.options { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: .75rem; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
details > summary { cursor: pointer; font-weight: 600; }
.pages li { margin: .75rem 0; }
.diff .add { color: var(--ok); }
.diff .del { color: var(--danger); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; }
`;
