import { type Static, Type as T } from "@sinclair/typebox";
import { AnswerResponse } from "./answer.ts";
import { StringEnum } from "./common.ts";
import { FetchResult } from "./fetch.ts";
import { SearchResponse } from "./search.ts";

/** The results POST /v1/demo has baked in, one per endpoint it stands for. */
export const DEMO_KINDS = ["fetch", "search", "answer", "crawl"] as const;
export type DemoKind = (typeof DEMO_KINDS)[number];

/** POST /v1/demo's body. */
export const DemoBody = T.Object(
  {
    kind: StringEnum([...DEMO_KINDS], {
      description:
        "Which endpoint's answer to show: fetch (POST /v1/fetch), search (GET /v1/search), answer (POST /v1/answer) or crawl (GET /v1/crawl/:id of a finished crawl)",
    }),
  },
  { additionalProperties: false },
);
export type DemoInput = Static<typeof DemoBody>;

/** An item of a crawl poll's data (src/jobs/page-result.ts crawlItem). */
export const CrawlItem = T.Object({
  url: T.String(),
  title: T.String(),
  markdown: T.String(),
  links: T.Array(T.String()),
  metadata: FetchResult.properties.metadata,
  statusCode: T.Integer(),
  html: T.Optional(T.String()),
  text: T.Optional(T.String()),
  rawHtml: T.Optional(T.String()),
  images: T.Optional(FetchResult.properties.images),
  screenshot: T.Optional(T.String()),
  warning: T.Optional(T.String()),
});

/** GET /v1/crawl/:id's answer (SPEC poll response), as server/routes/jobs.ts builds it. */
export const CrawlPoll = T.Object({
  success: T.Literal(true),
  status: StringEnum(["queued", "processing", "completed", "failed", "cancelled"]),
  progress: T.Integer({ minimum: 0, maximum: 100 }),
  total: T.Integer({ minimum: 0 }),
  completed: T.Integer({ minimum: 0 }),
  failed: T.Integer({ minimum: 0 }),
  creditsUsed: T.Integer({ minimum: 0 }),
  expiresAt: T.Union([T.String(), T.Null()], { description: "ISO 8601; results are kept until then" }),
  data: T.Array(CrawlItem),
  error: T.Optional(T.String()),
  next: T.Optional(T.String({ description: "The next page of results, until the last" })),
  lastProgressAt: T.String({
    description: "ISO 8601: when the job last moved (a page finished, a status changed)",
  }),
  warning: T.Optional(
    T.String({
      description: "While queued or processing: no movement for SIPHON_JOB_STALL_MS; it looks stalled",
    }),
  ),
});
export type CrawlPoll = Static<typeof CrawlPoll>;

/** POST /v1/demo's answer: the named endpoint's own response shape. */
export const DemoResponse = T.Union([FetchResult, SearchResponse, AnswerResponse, CrawlPoll], {
  description:
    "Exactly what the endpoint `kind` names answers: a Fetch result, a Search response, an Answer response or a crawl poll",
});
export type DemoResponse = Static<typeof DemoResponse>;
