import puppeteer from "puppeteer-core";
import { mkdtempSync, rmSync } from "node:fs";
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(`<html><body><script>window.parseWd = navigator.webdriver;</script><iframe id="f" src="about:blank"></iframe></body></html>`, { headers: { "content-type": "text/html" } }) });
const headless = (process.argv[2] ?? "true") === "shell" ? "shell" as const : true;
const dir = mkdtempSync("/tmp/stealth-probe/ud-");
const browser = await puppeteer.launch({ executablePath: "/usr/bin/chromium", headless, args: ["--no-sandbox","--disable-gpu","--disable-dev-shm-usage","--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run","--disable-quic", `--user-data-dir=${dir}`, "--disable-blink-features=AutomationControlled", "--window-size=1280,800", "--screen-info={1920x1080 workAreaBottom=40}"], defaultViewport: { width: 1280, height: 800 } });
try {
  console.log("version", await browser.version(), await browser.userAgent());
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send("Emulation.setHardwareConcurrencyOverride", { hardwareConcurrency: 8 });
  await page.evaluateOnNewDocument(() => { (window as any).marker = (window as any).marker ?? "installed"; });
  await page.goto(`http://127.0.0.1:${server.port}/`);
  const r = await page.evaluate(async () => {
    const f = document.createElement("iframe"); document.body.appendChild(f);
    const g = document.createElement("iframe"); g.srcdoc = "<p>x</p>"; document.body.appendChild(g);
    await new Promise(r => setTimeout(r, 200));
    const w = window as any;
    return { parseWd: w.parseWd, wd: navigator.webdriver, hc: navigator.hardwareConcurrency, dm: (navigator as any).deviceMemory, marker: w.marker,
      staticIframeMarker: (document.getElementById("f") as HTMLIFrameElement).contentWindow && ((document.getElementById("f") as any).contentWindow.marker),
      dynIframeMarker: (f.contentWindow as any).marker, srcdocMarker: (g.contentWindow as any).marker, dynHc: (f.contentWindow as any).navigator.hardwareConcurrency,
      outer: [outerWidth, outerHeight, innerWidth, innerHeight, screen.width, screen.height, screen.availWidth, screen.availHeight, screenX, screenY],
      uad: (navigator as any).userAgentData?.brands, secure: isSecureContext, notif: Notification.permission, perm: (await navigator.permissions.query({name: "notifications"})).state };
  });
  console.log(JSON.stringify(r));
} finally { await browser.close(); rmSync(dir, { recursive: true, force: true }); server.stop(true); }
