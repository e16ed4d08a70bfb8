import { Elysia } from "elysia";
import { DemoBody, DemoResponse } from "../../src/schemas/demo.ts";
import { validate } from "../../src/schemas/validate.ts";
import { demo } from "../demo/index.ts";
import { jsonRequestBody, responses } from "../openapi.ts";

const description =
  "Pre-baked results built into siphon, shaped exactly like the real endpoints' answers: kind fetch is a " +
  "Fetch result (POST /v1/fetch), search a Search response (GET /v1/search), answer an Answer response " +
  "(POST /v1/answer), crawl the poll of a finished crawl (GET /v1/crawl/:id). For a first screen and for " +
  "trying the API offline: no key (even with SIPHON_AUTH=required; a key sent is not read), no quota, no " +
  "burst window, and nothing is fetched. Answers carry X-Siphon-Demo: true. An unknown kind is a 400 " +
  "naming the kinds.";

/** POST /v1/demo: no guard at all (SPEC: no key, no quota), so nothing authenticates or meters it. */
export function demoRoutes(now: () => number = Date.now) {
  return new Elysia({ name: "routes:demo" }).post(
    "/v1/demo",
    ({ body, set }) => {
      const { kind } = validate(DemoBody, body);
      set.headers["x-siphon-demo"] = "true";
      return demo(kind, now);
    },
    {
      detail: {
        summary: "Pre-baked example results: no key, no quota, no network",
        description,
        security: [],
        requestBody: jsonRequestBody(DemoBody),
        responses: responses(DemoResponse, [400]),
      } as never,
    },
  );
}
