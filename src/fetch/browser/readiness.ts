import type { JSHandle, Page } from "puppeteer-core";
import type { ActivityTracker } from "./settle.ts";

/**
 * When is a rendered page ready to read? After its load event:
 *  1. no main-frame navigation under way (a script-driven reload, a JS challenge);
 *  2. the network has been quiet for NETWORK_QUIET_MS: no request open that holds the page
 *     (EventSource, WebSocket, beacons and requests open over LONG_REQUEST_MS never do);
 *  3. the DOM has not changed for DOM_QUIET_MS, by a clock that watches it from the moment the
 *     wait begins, so a page that drew while the network settled is read without a second look;
 *  4. the page no longer looks like an app that has not drawn yet: an empty app root, a visible
 *     spinner, progress bar or "Loading…" text with little other text, or a body with no text
 *     at all while scripts run. Such a page is waited for, change by change, up to the app cap
 *     (SIPHON_RENDER_WAIT_MAX_MS, never past the fetch's deadline); a loading indicator beside
 *     real text gets LOADER_PATIENCE_MS after the last change.
 * A page that never draws returns at the cap with what it has and says why.
 */

/**
 * How long the DOM must stay unchanged before a page counts as drawn, counted from the last
 * change (or from when readiness began, for a page that does not change): what a framework
 * schedules for the next tick, a frame or a microtask after its data, lands within it.
 */
const DOM_QUIET_MS = 30;
/** Quiet network time after the last request ends: chained calls start within it. */
const NETWORK_QUIET_MS = 50;
/** Longest wait for the network and the DOM to go quiet on a page that looks drawn. */
const SETTLE_MAX_MS = 3_000;
/** While a page looks unfinished, how long one look waits for the next DOM change. */
const CHANGE_SLICE_MS = 250;
/** How long a loading indicator beside real content may stay unchanged before we stop waiting. */
const LOADER_PATIENCE_MS = 1_000;
/** Visible text below which a page with an empty root or a loader counts as not drawn yet. */
const ENOUGH_TEXT = 500;

/** What one look at the page found. */
export interface PageLook {
  /** Length of the visible text (innerText, whitespace collapsed); on big pages, of the text up to 20,000 characters. */
  text: number;
  /** Selector of an app root element that is still empty, if any. */
  emptyRoot: string | null;
  /** A visible spinner, progress bar, skeleton, aria-busy element or "Loading…" text. */
  loading: boolean;
  scripts: number;
  /** The DOM changed during the look. */
  changed: boolean;
}

/** How a wait for readiness ended. */
export interface Readiness {
  /** False when the page still looked unfinished at the cap. */
  ready: boolean;
  /** Why the page looked unfinished, when it did at the end. */
  unfinished?: string;
  waitedMs: number;
}

/** When to stop waiting. */
export interface ReadinessLimits {
  /** Hard stop (epoch ms): the fetch's deadline, less room to read the page. */
  deadline: number;
  /** How long a page that looks like an undrawn app is waited for, at most. 0: not at all. */
  appWaitMs: number;
}

/** In the page: when the DOM last changed (performance.now()), by an observer started with the wait. */
interface DomClock {
  /** The last change, or when the clock started. */
  last: number;
  /** The last change a look has reported. */
  seen: number;
  /** Called on every change (by the look waiting for one). */
  wake?: () => void;
  stop(): void;
}

/** Runs in the page: starts the DOM clock of one wait for readiness. */
function startClock(): DomClock {
  const clock: DomClock = {
    last: performance.now(),
    seen: performance.now(),
    stop: () => observer.disconnect(),
  };
  const observer = new MutationObserver(() => {
    clock.last = performance.now();
    clock.wake?.();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
  return clock;
}

/**
 * Runs in the page: waits until the DOM has been quiet for `quietMs` by `clock` (with
 * `untilChange`, only after a change this look sees), or `maxMs`, then looks at it.
 */
function observe(clock: DomClock, quietMs: number, maxMs: number, untilChange: boolean): Promise<PageLook> {
  const ROOTS =
    "#root,#app,#__next,#__nuxt,#___gatsby,#svelte,#main-app,#application,app-root,[ng-app],[ng-version]";
  const LOADERS =
    '[aria-busy="true"],[role="progressbar"],.spinner,.loader,.loading,.skeleton,[class*="spinner" i],[class*="skeleton" i],[class*="loading" i],[class*="loader" i]';
  // "Loading…" in the languages most sites are written in; spinners and aria-busy need no words.
  const LOADING_TEXT =
    /^(loading|please wait|one moment|fetching|cargando|carregando|chargement|caricamento|wird geladen|laden|ładowanie|загрузка|yükleniyor|memuat|読み込み中|ロード中|加载中|載入中|正在加载|로딩|불러오는 중)(\b|\s|\.|…|$).{0,40}$/iu;
  const shown = (el: Element) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && style.opacity !== "0";
  };
  const look = (changed: boolean): PageLook => {
    const body = document.body;
    let emptyRoot: string | null = null;
    for (const el of document.querySelectorAll(ROOTS)) {
      if (el.children.length === 0 && !(el.textContent ?? "").trim()) {
        emptyRoot = el.id ? `#${el.id}` : el.tagName.toLowerCase();
        break;
      }
    }
    let loading = false;
    for (const el of document.querySelectorAll(LOADERS)) {
      if (shown(el)) {
        loading = true;
        break;
      }
    }
    // One bounded walk over the text: how much there is (up to what matters) and whether a
    // "Loading…" stands in for content that has not come yet. A huge page costs little.
    let raw = 0;
    if (body) {
      const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      let budget = 5_000;
      for (let node = walker.nextNode(); node && budget-- > 0 && raw < 20_000; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(parent.tagName)) continue;
        const value = node.nodeValue?.trim() ?? "";
        raw += value.length;
        if (!loading && value.length > 2 && LOADING_TEXT.test(value) && shown(parent)) loading = true;
      }
    }
    // innerText lays the page out: measure it only where the verdict depends on it. It is the
    // visible text, which is what tells a drawn page from a shell (hidden text counts above).
    const visible = () =>
      // biome-ignore lint/performance/useDomNodeTextContent: the visible text is the point here
      (body?.innerText ?? "").replace(/\s+/g, " ").trim().length;
    const text = emptyRoot || loading || raw < 2_000 ? visible() : raw;
    return { text, emptyRoot, loading, scripts: document.scripts.length, changed };
  };
  // Without a script nothing can change the document after load.
  if (document.scripts.length === 0) return Promise.resolve(look(false));
  return new Promise((resolve) => {
    const since = clock.seen;
    const cap = performance.now() + maxMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      const now = performance.now();
      const changed = clock.last > since;
      const quietAt = clock.last + quietMs;
      if (now >= cap || ((changed || !untilChange) && now >= quietAt)) {
        clock.wake = undefined;
        clock.seen = clock.last;
        resolve(look(changed));
        return;
      }
      // Wake when the DOM has been quiet long enough (or at the cap); a change reschedules.
      const next = changed || !untilChange ? Math.min(quietAt, cap) : cap;
      timer = setTimeout(check, Math.max(0, next - now));
    };
    clock.wake = untilChange ? check : undefined;
    check();
  });
}

interface Verdict {
  unfinished: string;
  /** Undrawn (wait up to the app cap), rather than one part still loading beside content. */
  strong: boolean;
}

/** Why a page looks undrawn (strong: wait up to the app cap), or only still loading a part (weak). */
export function judge(look: PageLook): Verdict | undefined {
  if (look.scripts === 0) return undefined;
  if (look.text < ENOUGH_TEXT && look.emptyRoot)
    return { unfinished: `its app root ${look.emptyRoot} is empty`, strong: true };
  if (look.text < ENOUGH_TEXT && look.loading)
    return { unfinished: "it shows a loading indicator and little else", strong: true };
  if (look.text === 0) return { unfinished: "it has no text while its scripts run", strong: true };
  if (look.loading) return { unfinished: "part of it is still loading", strong: false };
  return undefined;
}

/**
 * Waits until the page is ready to read (see the rule at the top of this file). Never throws;
 * returns by `limits.deadline` at the latest, saying whether the page still looked unfinished.
 */
export async function waitUntilReady(
  page: Page,
  tracker: ActivityTracker,
  limits: ReadinessLimits,
): Promise<Readiness> {
  const started = Date.now();
  const appUntil = Math.min(limits.deadline, started + limits.appWaitMs);
  // A drawn page that keeps its network or DOM busy is read after SETTLE_MAX_MS all the same.
  let until = Math.min(limits.deadline, started + SETTLE_MAX_MS);
  let lastChange = started;
  let untilChange = false;
  let verdict: Verdict | undefined;
  // The DOM clock of the current document; a navigation takes it away, and a new one is started.
  let clock: JSHandle<DomClock> | undefined;
  const done = (ready: boolean): Readiness => {
    const stopped = clock;
    if (stopped)
      void stopped
        .evaluate((c) => c.stop())
        .then(
          () => stopped.dispose(),
          () => {},
        );
    return { ready, unfinished: ready ? undefined : verdict?.unfinished, waitedMs: Date.now() - started };
  };
  for (;;) {
    if (page.isClosed()) return done(!verdict?.strong);
    const outOfTime = Date.now() >= until;
    if (!outOfTime && tracker.navigating) {
      await tracker.nextLoad(until - Date.now());
      clock = undefined;
      untilChange = false;
      continue;
    }
    // The network and the DOM go quiet side by side: the wait is the longer of the two, not both.
    const lookStarted = Date.now();
    const networkQuiet =
      !outOfTime && (tracker.pending > 0 || lookStarted - tracker.lastActivity < NETWORK_QUIET_MS)
        ? tracker.networkQuiet(NETWORK_QUIET_MS, until)
        : undefined;
    let look: PageLook;
    try {
      clock ??= await page.evaluateHandle(startClock);
      const slice = Math.max(0, until - Date.now());
      [look] = await Promise.all([
        page.evaluate(
          observe,
          clock,
          DOM_QUIET_MS,
          untilChange ? Math.min(slice, CHANGE_SLICE_MS) : slice,
          untilChange,
        ),
        networkQuiet,
      ]);
    } catch {
      // The document was replaced mid-look (a navigation): go round and wait for the new one.
      clock = undefined;
      if (Date.now() >= until) return done(!verdict?.strong);
      untilChange = false;
      continue;
    }
    // A navigation began, or requests came or went while we looked: what they bring may not be
    // drawn in this look yet. Look again: the clock has watched the DOM meanwhile, so a page
    // that drew within the quiet window is read at once.
    if ((tracker.navigating || tracker.lastActivity > lookStarted) && Date.now() < until) {
      untilChange = false;
      continue;
    }
    if (look.changed) lastChange = Date.now();
    verdict = judge(look);
    if (!verdict) return done(true);
    if (verdict.strong) until = Math.max(until, appUntil);
    const now = Date.now();
    if (verdict.strong && now >= until) return done(false);
    // A part still loading beside real content is not worth a warning when we stop waiting for it.
    if (
      !verdict.strong &&
      now >= Math.min(until, Math.max(lastChange, tracker.lastActivity) + LOADER_PATIENCE_MS)
    ) {
      return done(true);
    }
    untilChange = true;
  }
}

/** Waits for the page to settle after an action (navigation, network, DOM), not for an app to draw. */
export function settle(page: Page, tracker: ActivityTracker, deadline: number): Promise<Readiness> {
  return waitUntilReady(page, tracker, { deadline, appWaitMs: 0 });
}
