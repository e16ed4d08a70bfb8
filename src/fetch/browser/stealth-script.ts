/**
 * The in-page half of stealth: one self-contained function that Chromium runs
 * in every new document (top page and each frame) and in each dedicated worker
 * before any page script. It is serialised with its argument, so it must not
 * touch anything outside its own body.
 *
 * Rule of thumb: repair only what is wrong. Each evasion first checks whether
 * the browser already looks right (new headless plus the launch flags and
 * CDP overrides fix most signals natively), because every patch is one more
 * thing a careful detector could notice.
 */

/** What the page script needs to know; plain JSON. */
export interface StealthScriptConfig {
  languages: string[];
  /** navigator.platform; CDP sets it in documents, but workers keep the real one. */
  platform: string;
  hardwareConcurrency: number;
  deviceMemory: number;
  webglVendor: string;
  webglRenderer: string;
}

/** Installs the evasions in the current realm (window or worker). Runs in the browser, never in Bun. */
export function stealthScript(config: StealthScriptConfig): void {
  // Workers have WorkerNavigator and no DOM; the navigator evasions apply to both.
  const scope = globalThis as unknown as {
    Navigator?: { prototype: object };
    WorkerNavigator?: { prototype: object };
  };
  const navigatorProto = (scope.Navigator ?? scope.WorkerNavigator)!.prototype;
  // --- Tools: patched functions are Proxies of the native ones, so name, length, the
  // missing prototype and "Illegal invocation" on a foreign receiver stay native.
  const nativeToString = Function.prototype.toString;
  const disguised = new WeakMap<object, string>();
  const wrap = <T extends object>(fn: T, apply: ProxyHandler<T>["apply"]): T => {
    const proxy = new Proxy(fn, { apply });
    disguised.set(proxy, nativeToString.call(fn));
    return proxy;
  };
  // Detectors print a function to see whether it is "[native code]": answer for our proxies.
  Function.prototype.toString = wrap(nativeToString, (target, self, args) =>
    disguised.has(self) ? disguised.get(self) : Reflect.apply(target, self, args),
  );
  const overrideGetter = (target: object, prop: string, value: (real: unknown, self: unknown) => unknown) => {
    // The accessor may live on the object itself (window) or up its prototype chain.
    let owner: object | null = target;
    while (owner && !Object.hasOwn(owner, prop)) owner = Object.getPrototypeOf(owner);
    const descriptor = owner && Object.getOwnPropertyDescriptor(owner, prop);
    if (!owner || !descriptor?.get) return;
    // Calling the real getter first keeps its receiver checks (and errors) intact.
    const get = wrap(descriptor.get, (target, self, args) => value(Reflect.apply(target, self, args), self));
    Object.defineProperty(owner, prop, { ...descriptor, get });
  };
  const overrideMethod = (
    owner: object,
    name: string,
    apply: ProxyHandler<(...a: unknown[]) => unknown>["apply"],
  ) => {
    const descriptor = Object.getOwnPropertyDescriptor(owner, name);
    if (typeof descriptor?.value !== "function") return;
    Object.defineProperty(owner, name, { ...descriptor, value: wrap(descriptor.value, apply) });
  };

  // --- navigator.webdriver: true under automation, false in a normal Chrome. The
  // AutomationControlled launch flag fixes it natively; this covers browsers without it.
  if (navigator.webdriver) overrideGetter(navigatorProto, "webdriver", () => false);

  // --- Languages: headless reports the machine's, which may contradict Accept-Language.
  const languages = Object.freeze([...config.languages]);
  if (languages.length > 0 && navigator.languages.join() !== languages.join()) {
    overrideGetter(navigatorProto, "languages", () => languages);
    overrideGetter(navigatorProto, "language", () => languages[0]);
  }
  if (navigator.platform !== config.platform)
    overrideGetter(navigatorProto, "platform", () => config.platform);

  // --- Hardware: CDP sets hardwareConcurrency natively; these are the fallbacks.
  if (navigator.hardwareConcurrency !== config.hardwareConcurrency)
    overrideGetter(navigatorProto, "hardwareConcurrency", () => config.hardwareConcurrency);
  // deviceMemory exists in secure contexts only; a real desktop reports a modest power of two.
  if (
    "deviceMemory" in navigator &&
    (navigator as { deviceMemory?: number }).deviceMemory !== config.deviceMemory
  )
    overrideGetter(navigatorProto, "deviceMemory", () => config.deviceMemory);

  // --- WebGL: without a GPU Chromium renders with SwiftShader and says so in the
  // unmasked vendor/renderer, the clearest "server, not a person" signal there is.
  const UNMASKED_VENDOR = 37445;
  const UNMASKED_RENDERER = 37446;
  for (const context of [globalThis.WebGLRenderingContext, globalThis.WebGL2RenderingContext]) {
    if (!context) continue;
    overrideMethod(context.prototype, "getParameter", (target, self, args) => {
      const real = Reflect.apply(target, self, args);
      if (args[0] !== UNMASKED_VENDOR && args[0] !== UNMASKED_RENDERER) return real;
      const renderer = String(Reflect.apply(target, self, [UNMASKED_RENDERER]));
      if (!/SwiftShader|llvmpipe|softpipe/i.test(renderer)) return real;
      return args[0] === UNMASKED_VENDOR ? config.webglVendor : config.webglRenderer;
    });
  }

  // --- Notifications: old headless answered Notification.permission "denied" but
  // permissions.query "prompt", a contradiction no real browser shows. Keep them in step.
  if (globalThis.Permissions && globalThis.PermissionStatus && globalThis.Notification) {
    const expected: Record<NotificationPermission, PermissionState> = {
      default: "prompt",
      denied: "denied",
      granted: "granted",
    };
    const corrected = new WeakMap<object, PermissionState>();
    overrideGetter(
      PermissionStatus.prototype,
      "state",
      (real, self) => corrected.get(self as object) ?? real,
    );
    overrideMethod(Permissions.prototype, "query", (target, self, args) => {
      const result = Reflect.apply(target, self, args) as Promise<PermissionStatus>;
      if ((args[0] as PermissionDescriptor | undefined)?.name !== "notifications") return result;
      return result.then((status) => {
        const want = expected[Notification.permission];
        if (status.state !== want) corrected.set(status, want);
        return status;
      });
    });
  }

  if (typeof window === "undefined") return;
  installChrome();
  if (navigator.plugins.length === 0) installPlugins();
  fixWindowSize();

  // --- window.chrome: every desktop Chrome page has it; old headless had none. Fill in
  // what is missing only (chrome.runtime is deliberately absent: ordinary pages lack it too).
  function installChrome(): void {
    const win = window as unknown as { chrome?: Record<string, unknown> };
    if (win.chrome && "app" in win.chrome && "csi" in win.chrome && "loadTimes" in win.chrome) return;
    const chrome = win.chrome ?? {};
    const started = performance.timeOrigin;
    const native = <T extends object>(name: string, fn: T): T => {
      disguised.set(fn, `function ${name}() { [native code] }`);
      return fn;
    };
    chrome.app ??= {
      isInstalled: false,
      InstallState: { DISABLED: "disabled", INSTALLED: "installed", NOT_INSTALLED: "not_installed" },
      RunningState: { CANNOT_RUN: "cannot_run", READY_TO_RUN: "ready_to_run", RUNNING: "running" },
      getDetails: native("getDetails", () => null),
      getIsInstalled: native("getIsInstalled", () => false),
      runningState: native("runningState", () => "cannot_run"),
    };
    chrome.csi ??= native("csi", () => ({
      onloadT: Math.round(started + performance.now()),
      startE: Math.round(started),
      pageT: performance.now(),
      tran: 15,
    }));
    chrome.loadTimes ??= native("loadTimes", () => ({
      requestTime: started / 1000,
      startLoadTime: started / 1000,
      finishDocumentLoadTime: (started + performance.now()) / 1000,
      navigationType: "Other",
      wasFetchedViaSpdy: false,
      connectionInfo: "http/1.1",
    }));
    if (!win.chrome)
      Object.defineProperty(window, "chrome", { value: chrome, writable: true, configurable: false });
  }

  // --- Plugins: modern Chrome lists five PDF viewers; old headless listed none.
  // Fakes get the real prototypes so instanceof and toString look right.
  function installPlugins(): void {
    const names = ["PDF Viewer", "Chrome PDF Viewer", "Chromium PDF Viewer", "Microsoft Edge PDF Viewer"];
    names.push("WebKit built-in PDF");
    const fields = new WeakMap<object, Record<string, unknown>>();
    const make = <T extends object>(proto: T, own: Record<string, unknown>, items: object[]): T => {
      const fake = Object.create(proto) as T;
      fields.set(fake, { ...own, length: items.length });
      items.forEach((item, i) => {
        Object.defineProperty(fake, i, { value: item, enumerable: true });
      });
      for (const item of items) {
        const key = (fields.get(item)?.name ?? fields.get(item)?.type) as string;
        Object.defineProperty(fake, key, { value: item });
      }
      return fake;
    };
    const mimes = [
      { type: "application/pdf", suffixes: "pdf", description: "Portable Document Format" },
      { type: "text/pdf", suffixes: "pdf", description: "Portable Document Format" },
    ].map((own) => make(MimeType.prototype, own, []));
    const plugins = names.map((name) =>
      make(
        Plugin.prototype,
        { name, filename: "internal-pdf-viewer", description: "Portable Document Format" },
        mimes,
      ),
    );
    for (const mime of mimes) fields.get(mime)!.enabledPlugin = plugins[0];
    const pluginArray = make(PluginArray.prototype, {}, plugins);
    const mimeArray = make(MimeTypeArray.prototype, {}, mimes);
    // Prototype accessors answer for our fakes and defer to the native code otherwise.
    for (const proto of [
      Plugin.prototype,
      MimeType.prototype,
      PluginArray.prototype,
      MimeTypeArray.prototype,
    ]) {
      for (const key of ["name", "filename", "description", "type", "suffixes", "enabledPlugin", "length"]) {
        const descriptor = Object.getOwnPropertyDescriptor(proto, key);
        if (!descriptor?.get) continue;
        const get = wrap(descriptor.get, (target, self, args) =>
          fields.has(self) ? fields.get(self)![key] : Reflect.apply(target, self, args),
        );
        Object.defineProperty(proto, key, { ...descriptor, get });
      }
      for (const key of ["item", "namedItem"]) {
        overrideMethod(proto, key, (target, self, args) => {
          if (!fields.has(self)) return Reflect.apply(target, self, args);
          const arg = args[0];
          return (
            (typeof arg === "number"
              ? (self as Record<number, object>)[arg]
              : (self as Record<string, object>)[String(arg)]) ?? null
          );
        });
      }
    }
    overrideGetter(Navigator.prototype, "plugins", () => pluginArray);
    overrideGetter(Navigator.prototype, "mimeTypes", () => mimeArray);
  }

  // --- Window size: with an emulated viewport headless can report an outer window
  // smaller than its inner one, or a screen smaller than the window. Give the window a
  // toolbar's worth of height and the screen room for the window.
  function fixWindowSize(): void {
    const TOOLBAR = 85;
    if (outerWidth < innerWidth || outerHeight <= innerHeight) {
      overrideGetter(window, "outerWidth", (real) => Math.max(Number(real), innerWidth));
      overrideGetter(window, "outerHeight", (real) => Math.max(Number(real), innerHeight + TOOLBAR));
    }
    if (screen.width < outerWidth || screen.height < outerHeight) {
      const width = () => Math.max(1920, outerWidth);
      const height = () => Math.max(1080, outerHeight);
      overrideGetter(Screen.prototype, "width", width);
      overrideGetter(Screen.prototype, "height", height);
      overrideGetter(Screen.prototype, "availWidth", width);
      overrideGetter(Screen.prototype, "availHeight", () => height() - 40);
    }
  }
}
