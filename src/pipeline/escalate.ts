import { SiphonError } from "../errors.ts";
import type { ExtractOptions } from "../extract/types.ts";
import { detectNeedsJavaScript } from "../fetch/detect.ts";
import type { EngineFetchOptions, EngineName, FetchedPage } from "../fetch/types.ts";
import { blockedError, type Converted, convertPage } from "./convert.ts";
import type { Engines } from "./engines.ts";

/** One fetch of a page by one engine, converted with the request's extraction options. */
export interface Attempt {
  page: FetchedPage;
  converted: Converted;
  engine: EngineName;
  /** Why the answer is less than it could have been (escalation disabled), for X-Degraded. */
  degraded?: string;
  /** Why the answer may be less than the page (a stage failed or drew less; an unfinished render). */
  warning?: string;
}

export interface EscalationPlan {
  /** The engine to start with: simple unless the request forces rendering or stealth. */
  start: EngineName;
  /** May the pipeline move to a stronger engine on its own? */
  allowed: boolean;
  /** Options per engine (the simple engine ignores the browser-only ones). */
  options: (engine: EngineName) => EngineFetchOptions;
  extract: ExtractOptions;
  /** Called with a stage's answer when the page goes on to a stronger engine (see FetchDeps.onPartial). */
  onEscalate?: (attempt: Attempt) => void;
}

const DISABLED_HINT =
  "Automatic escalation is off (SIPHON_ESCALATION=false, or the weekly quota is used up).";
/** How stages are compared: the text of the main content, as a reader would judge them. */
const MAIN_TEXT: ExtractOptions = { format: "text", onlyMainContent: true, images: false };

/** Length of an attempt's main-content text (HTML pages are extracted once more for it). */
export async function mainTextLength(attempt: Attempt, engines: Engines): Promise<number> {
  const { converted, page } = attempt;
  if (converted.html === undefined) return converted.doc.content.trim().length;
  const extract = engines.extract ?? (await import("../extract/pool.ts")).extractInline;
  return (await extract(converted.html, page.url, MAIN_TEXT)).content.trim().length;
}

function describe(error: unknown): string {
  return error instanceof SiphonError ? `${error.type}: ${error.message}` : String(error);
}

/** A stage that failed: the earlier stage's answer when it had content (saying so), else the failure. */
async function failedStage(
  name: EngineName,
  error: unknown,
  earlier: Attempt | undefined,
  engines: Engines,
): Promise<Attempt> {
  if (earlier && (await mainTextLength(earlier, engines)) > 0) {
    return {
      ...earlier,
      warning: `The ${name} stage failed (${describe(error)}); this is the ${earlier.engine} answer.`,
    };
  }
  throw error;
}

/**
 * Fetches and converts a page, escalating simple -> browser when the HTML needs JavaScript,
 * and simple|browser -> stealth when the answer is a bot-detection page. Each stage's answer is
 * compared with the one before by main-content text, and the better one is returned: a stage
 * that fails, times out or draws less text than the stage before gives back the earlier answer
 * with a `warning`, never an empty page or an error; only a forbidden_url (the page led the
 * browser to a refused address) is thrown whatever came before. Choosing the engine is core logic, not an
 * engine's: engines only fetch. Without escalation the simple result comes back with a
 * `degraded` note, and a bot wall stays `blocked`.
 */
export async function fetchEscalating(url: string, plan: EscalationPlan, engines: Engines): Promise<Attempt> {
  let name = plan.start;
  /** The best answer so far, from an earlier stage; undefined until a stage gave content. */
  let earlier: Attempt | undefined;
  for (;;) {
    let attempt: Attempt;
    try {
      const engine = await engines.get(name);
      const page = await engine.fetch(url, plan.options(name));
      const converted = await convertPage(page, plan.extract, engines.extract);
      attempt = { page, converted, engine: name };
      if (page.warning) attempt.warning = page.warning;
    } catch (error) {
      // A refusal is the answer, not a stage that failed: the page led to an address the SSRF
      // guard refuses (a script or meta redirect only the browser follows), as a 30x would.
      if (error instanceof SiphonError && error.type === "forbidden_url") throw error;
      return failedStage(name, error, earlier, engines);
    }
    // A bot-detection page: stealth is the next stage, unless this was stealth or escalation is off.
    const wall = attempt.converted.blocked;
    if (wall !== undefined) {
      if (name !== "stealth") {
        if (!plan.allowed) throw blockedError(wall, `${DISABLED_HINT} Retry with stealth: true.`);
        name = "stealth";
        continue;
      }
      return failedStage(
        name,
        blockedError(wall, "Stealth mode met the bot wall too; retry later."),
        earlier,
        engines,
      );
    }
    if (earlier) {
      const [before, after] = await Promise.all([
        mainTextLength(earlier, engines),
        mainTextLength(attempt, engines),
      ]);
      if (after < before) {
        return {
          ...earlier,
          warning:
            `The ${name} stage drew less main text than the ${earlier.engine} answer ` +
            `(${after} against ${before} characters); this is the ${earlier.engine} answer.`,
        };
      }
      return attempt;
    }
    if (name === "simple" && attempt.converted.html !== undefined) {
      const js = detectNeedsJavaScript(attempt.converted.html, attempt.converted.doc.content.length);
      if (js.needsJs) {
        if (!plan.allowed) {
          const degraded = `The page needs JavaScript (${js.reason ?? "little text in the HTML"}); browser rendering was skipped. ${DISABLED_HINT}`;
          return { ...attempt, degraded };
        }
        earlier = attempt;
        plan.onEscalate?.(attempt);
        name = "browser";
        continue;
      }
    }
    return attempt;
  }
}
