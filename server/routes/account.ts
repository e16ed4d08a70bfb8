import { Elysia } from "elysia";
import { usageReport } from "../../src/auth/usage-report.ts";
import { type Guard, identify } from "../guard.ts";

/** GET /v1/cli/usage and GET /v1/stats: authenticated, never metered. */
export function accountRoutes(guard: Guard) {
  return new Elysia({ name: "routes:account" })
    .get("/v1/cli/usage", async ({ request }) => usageReport(await identify(guard, request), guard), {
      detail: {
        summary: "Plan, weekly quota and burst window of the caller",
        description: "Not metered. In optional auth mode a keyless call reports the local account.",
      },
    })
    .get(
      "/v1/stats",
      async ({ request }) => guard.store.usage.stats((await identify(guard, request, true)).account.id),
      {
        detail: {
          summary: "Request statistics of the key's account",
          description: "totalRequests, successRate (percent), avgResponseTime (ms). Always needs a key.",
        },
      },
    );
}
