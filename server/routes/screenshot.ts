import { Elysia } from "elysia";
import { SiphonError } from "../../src/errors.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { takeScreenshot } from "../../src/pipeline/screenshot.ts";
import { ScreenshotBody, ScreenshotResponse } from "../../src/schemas/screenshot.ts";
import { validate } from "../../src/schemas/validate.ts";
import { type Guard, metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";

/** POST /v1/screenshot: translate the body, call the core, answer SPEC's Screenshot response. */
export function screenshotRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:screenshot" }).post(
    "/v1/screenshot",
    async ({ body, set, request }) => {
      const { data } = await takeScreenshot(validate(ScreenshotBody, body), {
        ...deps,
        signal: request.signal,
      });
      set.headers["x-fetch-type"] = "screenshot";
      return { success: true as const, data };
    },
    {
      detail: {
        summary: "Screenshot a page",
        description:
          "Renders the URL in Chromium (stealth when asked), runs the actions, waits waitFor ms and captures " +
          "the viewport or the full page. The image comes back as a data: URL.",
        requestBody: jsonRequestBody(ScreenshotBody),
        responses: responses(ScreenshotResponse, [400, 403, 502, 503, 504]),
      } as never,
    },
  );
}
