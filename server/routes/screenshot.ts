import { Elysia } from "elysia";
import { SiphonError } from "../../src/errors.ts";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { takeScreenshot } from "../../src/pipeline/screenshot.ts";
import { ScreenshotBody, ScreenshotResponse } from "../../src/schemas/screenshot.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";

/** POST /v1/screenshot: translate the body, meter it, call the core, answer SPEC's Screenshot response. */
export function screenshotRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:screenshot" }).post(
    "/v1/screenshot",
    ({ body, set, request }) => {
      const input = validate(ScreenshotBody, body);
      return metered(guard, request, set, "screenshot", async (admission) => {
        if (admission?.softLimited) {
          // A screenshot has no HTTP-only form to degrade to, so past the weekly quota it waits for the reset.
          const retryAfter = Math.max(1, Math.ceil((admission.weekly.resetsAt - guard.now()) / 1000));
          throw new SiphonError("rate_limited", "The weekly quota is used up; screenshots need the browser", {
            hint: "Enable extra usage or wait for the weekly reset.",
            headers: { "retry-after": String(retryAfter) },
          });
        }
        const { data } = await takeScreenshot(input, { ...deps, signal: request.signal });
        set.headers["x-fetch-type"] = "screenshot";
        return { body: { success: true as const, data }, credits: operationCredits.screenshot() };
      });
    },
    {
      detail: {
        summary: "Screenshot a page",
        description:
          "Renders the URL in Chromium (stealth when asked), runs the actions, waits waitFor ms and captures " +
          "the viewport or the full page. The image comes back as a data: URL. Costs one credit; past the " +
          "weekly quota (without extra usage) it answers 429 until the weekly reset, since a screenshot " +
          "cannot be degraded to HTTP-only.",
        requestBody: jsonRequestBody(ScreenshotBody),
        responses: responses(ScreenshotResponse, [400, 403, 429, 502, 503, 504]),
      } as never,
    },
  );
}
