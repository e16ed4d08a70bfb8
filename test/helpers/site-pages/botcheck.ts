/**
 * /botcheck: a bot-detection page in the manner of the public ones
 * (bot.sannysoft.com, CreepJS). Its inline script reads the signals those
 * pages read and lists one `<li data-check="name" data-result="pass|fail">`
 * per check, then `<p id="verdict">` HUMAN when all pass, BOT otherwise.
 */

/** The checks /botcheck runs, in page order. */
export const BOTCHECK_CHECKS = [
  // navigator.webdriver is true under automation
  "webdriver",
  // "HeadlessChrome" in navigator.userAgent or appVersion
  "user-agent",
  // a PluginArray with entries, as every desktop Chrome has
  "plugins",
  // a MimeTypeArray whose types point back at a Plugin
  "mime-types",
  // navigator.languages non-empty and led by navigator.language
  "languages",
  // the unmasked WebGL vendor/renderer is not the SwiftShader software rasteriser
  "webgl",
  // window.chrome with its app, csi and loadTimes members
  "chrome",
  // permissions.query("notifications") agrees with Notification.permission
  "permissions",
  // navigator.hardwareConcurrency is a positive number
  "hardware-concurrency",
  // navigator.userAgentData: no HeadlessChrome brand, same major and platform as the user agent
  "client-hints",
  // functions bots patch still print as native code
  "native-functions",
  // the outer window holds the viewport and the screen holds the window
  "window-size",
  // a fresh iframe shows the same webdriver and user agent as the page
  "iframe",
  // a dedicated worker reports the same user agent, CPU count, languages and platform as the page
  "worker",
] as const;

/** A name of BOTCHECK_CHECKS. */
export type BotcheckName = (typeof BOTCHECK_CHECKS)[number];

const SCRIPT = `
(async function () {
  var nativeRe = function (name) { return new RegExp("^function " + name + "\\\\(\\\\) \\\\{\\\\s*\\\\[native code\\\\]\\\\s*\\\\}$"); };
  var looksNative = function (fn, name) { return typeof fn === "function" && nativeRe(name).test(Function.prototype.toString.call(fn)); };
  var getter = function (proto, name) { var d = Object.getOwnPropertyDescriptor(proto, name); return d && d.get; };
  var uaPlatform = function (ua) { return /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Linux|X11/.test(ua) ? "Linux" : "?"; };
  var checks = {
    "webdriver": function () { return navigator.webdriver !== true; },
    "user-agent": function () { return !/HeadlessChrome/.test(navigator.userAgent) && !/HeadlessChrome/.test(navigator.appVersion); },
    "plugins": function () {
      var p = navigator.plugins;
      return p instanceof PluginArray && p.length > 0 && p[0] instanceof Plugin && p.item(0) === p[0] && String(p) === "[object PluginArray]";
    },
    "mime-types": function () {
      var m = navigator.mimeTypes;
      return m instanceof MimeTypeArray && m.length > 0 && m[0] instanceof MimeType && m[0].enabledPlugin instanceof Plugin;
    },
    "languages": function () { return navigator.languages.length > 0 && navigator.languages[0] === navigator.language; },
    "webgl": function () {
      var gl = document.createElement("canvas").getContext("webgl");
      var ext = gl && gl.getExtension("WEBGL_debug_renderer_info");
      if (!ext) return false;
      var vendor = String(gl.getParameter(ext.UNMASKED_VENDOR_WEBGL));
      var renderer = String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL));
      return !/SwiftShader|llvmpipe/i.test(renderer) && vendor !== "Google SwiftShader" && vendor !== "Google Inc. (Google)";
    },
    "chrome": function () {
      var c = window.chrome;
      return typeof c === "object" && c !== null && typeof c.app === "object" && typeof c.csi === "function" && typeof c.loadTimes === "function";
    },
    "permissions": async function () {
      if (typeof Notification === "undefined" || !navigator.permissions) return false;
      var state = (await navigator.permissions.query({ name: "notifications" })).state;
      var expected = { "default": "prompt", "denied": "denied", "granted": "granted" }[Notification.permission];
      return state === expected;
    },
    "hardware-concurrency": function () { return typeof navigator.hardwareConcurrency === "number" && navigator.hardwareConcurrency > 0; },
    "client-hints": function () {
      var data = navigator.userAgentData;
      if (!data) return false;
      var major = (/Chrome\\/(\\d+)/.exec(navigator.userAgent) || [])[1];
      var brands = data.brands.map(function (b) { return b.brand; });
      var chromium = data.brands.filter(function (b) { return b.brand === "Chromium"; })[0];
      return !brands.some(function (b) { return /Headless/.test(b); }) && !!chromium && chromium.version === major &&
        data.platform === uaPlatform(navigator.userAgent) && data.mobile === false;
    },
    "native-functions": function () {
      return looksNative(navigator.permissions.query, "query") &&
        looksNative(Function.prototype.toString, "toString") &&
        looksNative(getter(Navigator.prototype, "webdriver"), "get webdriver") &&
        looksNative(getter(Navigator.prototype, "languages"), "get languages") &&
        looksNative(WebGLRenderingContext.prototype.getParameter, "getParameter") &&
        !Object.getOwnPropertyNames(navigator).length;
    },
    "window-size": function () {
      return outerWidth > 0 && outerWidth >= innerWidth && outerHeight > innerHeight &&
        screen.width >= outerWidth && screen.height >= outerHeight && screen.availHeight <= screen.height;
    },
    "iframe": function () {
      var frame = document.createElement("iframe");
      document.body.appendChild(frame);
      var nav = frame.contentWindow.navigator;
      var ok = nav.webdriver !== true && !/HeadlessChrome/.test(nav.userAgent) && nav.plugins.length === navigator.plugins.length &&
        nav.hardwareConcurrency === navigator.hardwareConcurrency;
      frame.remove();
      return ok;
    },
    "worker": function () {
      var source = "postMessage([navigator.userAgent, navigator.hardwareConcurrency, navigator.languages.join(), navigator.platform, !!navigator.webdriver])";
      var worker = new Worker(URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
      var page = [navigator.userAgent, navigator.hardwareConcurrency, navigator.languages.join(), navigator.platform, !!navigator.webdriver];
      return new Promise(function (resolve) {
        worker.onmessage = function (event) { worker.terminate(); resolve(JSON.stringify(event.data) === JSON.stringify(page)); };
        worker.onerror = function () { resolve(false); };
      });
    },
  };
  var list = document.getElementById("checks");
  var human = true;
  for (var name of ${JSON.stringify(BOTCHECK_CHECKS)}) {
    var passed = false;
    try { passed = (await checks[name]()) === true; } catch (error) { passed = false; }
    human = human && passed;
    var li = document.createElement("li");
    li.dataset.check = name;
    li.dataset.result = passed ? "pass" : "fail";
    li.textContent = name + ": " + (passed ? "pass" : "fail");
    list.appendChild(li);
  }
  var verdict = document.createElement("p");
  verdict.id = "verdict";
  verdict.textContent = human ? "HUMAN" : "BOT";
  document.body.appendChild(verdict);
})();
`;

/** The bot-detection page; its verdict appears once every check has run. */
export function botcheckPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Are you a bot?</title></head>
<body>
  <h1>Browser fingerprint check</h1>
  <ul id="checks"></ul>
  <script>${SCRIPT}</script>
</body>
</html>`;
}
