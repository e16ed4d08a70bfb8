import type { PageRequest } from "../context.ts";
import { notice } from "../layout.ts";

/** GET /dashboard/watches */
export function showWatches(ctx: PageRequest): Response {
  return ctx.page("Watches", "watches", notice("info", "Watches are not available yet."));
}

/** GET /dashboard/watches/:id */
export function showWatch(ctx: PageRequest): Response {
  return showWatches(ctx);
}
