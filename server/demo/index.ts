import type { DemoKind, DemoResponse } from "../../src/schemas/demo.ts";
import { DEMO_ANSWER, DEMO_CRAWL, DEMO_FETCH, DEMO_SEARCH } from "./results.ts";

/** A finished crawl's results are kept this long (DECISIONS: 24 h), so its expiresAt is a day after serving. */
const RETENTION_MS = 86_400_000;

/**
 * The pre-baked answer of the endpoint `kind` names, shaped exactly as that endpoint answers.
 * Built into the binary: it reads no file, touches no network and needs no store.
 */
export function demo(kind: DemoKind, now: () => number = Date.now): DemoResponse {
  switch (kind) {
    case "fetch":
      return structuredClone(DEMO_FETCH);
    case "search":
      return structuredClone(DEMO_SEARCH);
    case "answer":
      return structuredClone(DEMO_ANSWER);
    case "crawl":
      return {
        ...structuredClone(DEMO_CRAWL),
        expiresAt: new Date(now() + RETENTION_MS).toISOString(),
        lastProgressAt: new Date(now()).toISOString(),
      };
  }
}
