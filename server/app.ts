import { swagger } from "@elysiajs/swagger";
import { Elysia, StatusMap } from "elysia";
import pkg from "../package.json";
import { SiphonError } from "../src/errors.ts";
import type { JobRunner } from "../src/jobs/runner.ts";
import type { FetchDeps } from "../src/pipeline/fetch-page.ts";
import { createWatchService, type WatchService } from "../src/watch/index.ts";
import { readJsonBody } from "./body.ts";
import { compatRoutes } from "./compat/index.ts";
import { dashboardRoutes } from "./dashboard/index.ts";
import { checkRequestSize, firecrawlAnswer, formatB, methodRefusal, toApiError } from "./errors.ts";
import { checkHost, createGuard, type Guard } from "./guard.ts";
import { jsonResponse, jsonTextResponse } from "./json-response.ts";
import { JsonText } from "./json-text.ts";
import { routeTable } from "./route-table.ts";
import { accountRoutes } from "./routes/account.ts";
import { agentRoutes } from "./routes/agent.ts";
import { agentJobRoutes } from "./routes/agent-jobs.ts";
import { answerRoutes } from "./routes/answer.ts";
import { askRoutes } from "./routes/ask.ts";
import { browserRoutes } from "./routes/browser.ts";
import { crawlPreviewRoutes } from "./routes/crawl-preview.ts";
import { demoRoutes } from "./routes/demo.ts";
import { docsRoutes } from "./routes/docs.ts";
import { extractRoutes } from "./routes/extract.ts";
import { fetchRoutes } from "./routes/fetch.ts";
import { healthRoutes } from "./routes/health.ts";
import { jobRoutes } from "./routes/jobs.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { parseRoutes } from "./routes/parse.ts";
import { researchRoutes } from "./routes/research.ts";
import { screenshotRoutes } from "./routes/screenshot.ts";
import { searchRoutes } from "./routes/search.ts";
import { watchRoutes } from "./routes/watch.ts";
import { youtubeRoutes } from "./routes/youtube.ts";
import { sharedPathRoutes } from "./shared-paths.ts";
import { isUpload, uploadLimit } from "./upload.ts";

export interface AppOptions extends FetchDeps {
  /** Runs crawl and batch jobs; the caller starts (resume) and closes it. */
  runner: JobRunner;
  /** Watches and their checks, shared with the scheduler; one of the app's own when absent. */
  watches?: WatchService;
  /** Auth mode and clock; built from the config when absent. */
  guard?: Guard;
  version?: string;
  startedAt?: number;
  /** Warnings worth an operator's eye (an LLM vendor refusing a call); never keys or bodies. */
  log?: (line: string) => void;
  /** Called with unexpected (500) errors so they are logged, never shown to the client. */
  onInternalError?: (error: unknown, requestId: string) => void;
}

interface RequestInfo {
  id: string;
  start: number;
}

/**
 * The HTTP server: format-B errors with X-Request-Id on every answer,
 * X-Processing-Time, JSON bodies parsed whatever their Content-Type, and the
 * OpenAPI document at /docs/json. Routes only translate; the core decides.
 */
export function createApp(options: AppOptions) {
  const version = options.version ?? pkg.version;
  const limit = options.config.requestBodyLimit;
  const requests = new WeakMap<Request, RequestInfo>();
  const infoOf = (request: Request): RequestInfo => {
    let info = requests.get(request);
    if (!info) {
      info = { id: crypto.randomUUID(), start: performance.now() };
      requests.set(request, info);
    }
    return info;
  };
  const guard = options.guard ?? createGuard(options.config, options.store, options.now);
  // One watch service for the native and the Firecrawl routes (and the scheduler, when given).
  const watches = options.watches ?? createWatchService({ ...options, now: guard.now });
  const elapsed = (request: Request) => String(Math.round(performance.now() - infoOf(request).start));

  // Read from the app's routes on first use, once every route is registered.
  const routes = routeTable(() => app.routes);
  guard.compatPath ??= (request) => routes.compatPath(new URL(request.url).pathname);
  guard.log ??= options.log;

  const app = new Elysia({
    serve: { maxRequestBodySize: Math.max(limit * 4, uploadLimit(options.config) + 65_536) },
  })
    // onError must be registered before the routes or Elysia ignores it.
    .onError(({ code, error, request }) => {
      const info = infoOf(request);
      let apiError = toApiError(code, error);
      // No route for the method (or only a catch-all's 404): a path the app serves answers 405.
      if (apiError.type === "not_found") apiError = methodRefusal(routes, request) ?? apiError;
      if (apiError.type === "internal_error") options.onInternalError?.(error, info.id);
      const headers = {
        "content-type": "application/json",
        "x-request-id": info.id,
        "x-processing-time": elapsed(request),
        ...apiError.headers,
      };
      // Refused before any route ran (the request's size, no route for it): Firecrawl's paths answer
      // Firecrawl's way here, as no hook of theirs runs. Errors of their routes are shaped by those.
      const unrouted = code === "NOT_FOUND" || apiError.status === 431;
      if (unrouted && routes.firecrawlShaped(new URL(request.url).pathname, request.method)) {
        const { status, body } = firecrawlAnswer(apiError);
        return new Response(JSON.stringify(body), { status, headers });
      }
      return new Response(JSON.stringify(formatB(apiError, info.id)), { status: apiError.status, headers });
    })
    .onRequest(({ request, set }) => {
      set.headers["x-request-id"] = infoOf(request).id;
      checkRequestSize(request);
      checkHost(guard, request);
    })
    // Before the JSON body parser: the dashboard's forms are form-encoded.
    .use(dashboardRoutes({ ...options, watches }, guard))
    // An upload (parse) may be a document's size; a multipart one is left to Elysia's form parser.
    .onParse(({ request, contentType }) => {
      if (!isUpload(request)) return readJsonBody(request, limit).then((body) => body ?? null);
      const largest = uploadLimit(options.config);
      if (!contentType?.startsWith("multipart/form-data"))
        return readJsonBody(request, largest).then((body) => body ?? null);
      if (Number(request.headers.get("content-length") ?? "0") > largest) {
        throw new SiphonError("payload_too_large", `The request body is larger than ${largest} bytes`);
      }
      return undefined;
    })
    .onAfterHandle(({ request, set }) => {
      set.headers["x-processing-time"] = elapsed(request);
    })
    // Plain JSON answers skip Elysia's mapping: jsonResponse builds their headers faster.
    .mapResponse(({ response, set }) => {
      if (response === null || typeof response !== "object" || response instanceof Response) return;
      // JSON a route made itself (a cached fetch result's kept bytes): sent as jsonResponse would.
      if (response instanceof JsonText) {
        const status = typeof set.status === "number" ? set.status : StatusMap[set.status ?? "OK"];
        const built = jsonTextResponse(response.body, status, set.headers as Record<string, string | number>);
        set.headers = {};
        set.status = 200;
        return built;
      }
      if (Object.getPrototypeOf(response) !== Object.prototype && !Array.isArray(response)) return;
      if (typeof set.status !== "number" || set.cookie || set.redirect) return;
      const built = jsonResponse(response, set.status, set.headers as Record<string, string | number>);
      // The response is final. Left in `set`, its status and headers would make Elysia copy it into a
      // new Response (a new Headers, a lookup per header, a body stream) to merge them in again.
      set.headers = {};
      set.status = 200;
      return built;
    })
    .use(
      swagger({
        path: "/docs",
        exclude: ["/docs", "/docs/json"],
        documentation: {
          info: {
            title: "siphon API",
            version,
            description:
              "Turns web pages into clean, model-ready content. Every error answers " +
              '{"success":false,"error":{"type","message","hint?"},"metadata":{"requestId"}} with its HTTP status.',
          },
        },
      }),
    )
    // After the swagger plugin: its /docs page is replaced by one that loads nothing from elsewhere.
    .use(docsRoutes(version))
    .use(healthRoutes(version, options.startedAt ?? Date.now()))
    .use(fetchRoutes(options, guard, options.log))
    .use(parseRoutes(options, guard, options.log))
    .use(crawlPreviewRoutes(options, guard))
    .use(browserRoutes(options, guard))
    .use(screenshotRoutes(options, guard))
    .use(searchRoutes(options, guard))
    .use(answerRoutes(options, guard, options.log))
    .use(researchRoutes(options, guard, options.log))
    .use(agentRoutes(options, guard, options.log))
    .use(askRoutes(options, guard))
    .use(sharedPathRoutes(options, guard, options.log))
    .use(extractRoutes(options, guard))
    .use(jobRoutes(guard))
    .use(agentJobRoutes(options, guard, options.runner))
    .use(accountRoutes(guard))
    .use(mcpRoutes(options, guard, version))
    .use(youtubeRoutes(options, guard))
    .use(watchRoutes(options, guard, watches))
    .use(demoRoutes(options.now))
    .use(compatRoutes({ ...options, watches }, guard, options.log));
  return app;
}

export type App = ReturnType<typeof createApp>;
