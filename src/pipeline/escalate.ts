import { SiphonError } from "../errors.ts";
import type { ExtractOptions } from "../extract/types.ts";
import { detectNeedsJavaScript } from "../fetch/detect.ts";
import type { EngineFetchOptions, EngineName, FetchedPage } from "../fetch/types.ts";
import { type Converted, convertPage } from "./convert.ts";
import type { Engines } from "./fetch-page.ts";

export interface Attempt {
  page: FetchedPage;
  converted: Converted;
  engine: EngineName;
  /** Why the answer is less than it could have been (escalation disabled), for X-Degraded. */
  degraded?: string;
}

export interface EscalationPlan {
  /** The engine to start with: simple unless the request forces rendering or stealth. */
  start: EngineName;
  /** May the pipeline move to a stronger engine on its own? */
  allowed: boolean;
  /** Options per engine (the simple engine ignores the browser-only ones). */
  options: (engine: EngineName) => EngineFetchOptions;
  extract: ExtractOptions;
}

const DISABLED_HINT =
  "Automatic escalation is off (SIPHON_ESCALATION=false, or the weekly quota is used up).";

/**
 * Fetches and converts a page, escalating simple -> browser when the HTML
 * needs JavaScript, and simple|browser -> stealth when the answer is a
 * bot-detection page. Choosing the engine is core logic, not an engine's:
 * engines only fetch. Without escalation the simple result comes back with a
 * `degraded` note, and a bot wall stays `blocked`.
 */
export async function fetchEscalating(url: string, plan: EscalationPlan, engines: Engines): Promise<Attempt> {
  let name = plan.start;
  for (;;) {
    const engine = await engines.get(name);
    const page = await engine.fetch(url, plan.options(name));
    let converted: Converted;
    try {
      converted = await convertPage(page, plan.extract, engines.extract);
    } catch (error) {
      const blocked = error instanceof SiphonError && error.type === "blocked";
      if (!blocked || name === "stealth") throw error;
      if (!plan.allowed)
        throw new SiphonError("blocked", error.message, {
          hint: `${DISABLED_HINT} Retry with stealth: true.`,
        });
      name = "stealth";
      continue;
    }
    if (name === "simple" && converted.html !== undefined) {
      const js = detectNeedsJavaScript(converted.html, converted.doc.content.length);
      if (js.needsJs) {
        if (!plan.allowed) {
          const degraded = `The page needs JavaScript (${js.reason ?? "little text in the HTML"}); browser rendering was skipped. ${DISABLED_HINT}`;
          return { page, converted, engine: name, degraded };
        }
        name = "browser";
        continue;
      }
    }
    return { page, converted, engine: name };
  }
}
