import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_ACTIONS, PageActionDoc } from "./actions.ts";
import { FetchBody } from "./fetch.ts";
import { PARSE_OPTIONS } from "./parse.ts";

/** POST /v1/browser: a browser session (a live page kept open between requests). */
export const SessionCreateBody = T.Object(
  {
    ttl: T.Integer({
      minimum: 1,
      maximum: 3600,
      default: 600,
      description: "Seconds the session lives at most, then closes (default 600)",
    }),
    activityTtl: T.Integer({
      minimum: 1,
      maximum: 3600,
      default: 300,
      description: "Seconds without a request after which the session closes (default 300)",
    }),
    stealth: T.Boolean({ default: false, description: "The stealth browser (bot-detection evasions)" }),
    url: T.Optional(T.String({ description: "A page to open at once (as an actions step's url)" })),
  },
  { additionalProperties: false },
);
export type SessionCreateInput = Static<typeof SessionCreateBody>;

/** POST /v1/browser/:id/actions: go to a page and/or run actions on the session's page. */
export const SessionActBody = T.Object(
  {
    url: T.Optional(T.String({ description: "Navigate here first (http(s), checked by the SSRF guard)" })),
    actions: T.Optional(
      T.Array(PageActionDoc, {
        maxItems: MAX_ACTIONS,
        description: "Page actions, as POST /v1/fetch's, run in order",
      }),
    ),
    timeout: T.Integer({
      minimum: 1000,
      maximum: 120_000,
      default: 30_000,
      description: "ms for this step (navigation, readiness and actions)",
    }),
  },
  { additionalProperties: false },
);
export type SessionActInput = Static<typeof SessionActBody>;

/** POST /v1/browser/:id/read: the session's page as it is now, in any format a fetch has for a document. */
export const SessionReadBody = T.Pick(FetchBody, [...PARSE_OPTIONS], { additionalProperties: false });
export type SessionReadInput = Static<typeof SessionReadBody>;

/** A session as the API shows it. */
export const SessionInfo = T.Object({
  id: T.String(),
  status: T.Literal("active"),
  url: T.String({ description: "The page the session is on now" }),
  createdAt: T.String(),
  lastActivity: T.String(),
  expiresAt: T.String({ description: "When the session closes at the latest (its ttl)" }),
});
export type SessionInfo = Static<typeof SessionInfo>;
