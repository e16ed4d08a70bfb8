import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";
import { MAX_ACTIONS, PageActionDoc } from "../../src/schemas/actions.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { FetchBody } from "../../src/schemas/fetch.ts";
import {
  SessionActBody,
  SessionCreateBody,
  SessionInfo,
  SessionReadBody,
} from "../../src/schemas/sessions.ts";
import { validate } from "../../src/schemas/validate.ts";
import { sessionsOf } from "../../src/sessions/index.ts";
import type { ToolDef, ToolImage } from "../types.ts";
import { jsonBlock } from "./render.ts";

export const BrowserToolInput = T.Object(
  {
    op: StringEnum(["open", "act", "read", "close", "list"], {
      description:
        "open a session (optionally at url); act: go to url and/or run actions in it; read its page now; close it; list yours",
    }),
    session: T.Optional(T.String({ description: "The session's id (from open), for act, read and close" })),
    url: T.Optional(T.String({ description: "open and act: the page to go to (http(s))" })),
    actions: T.Optional(
      T.Array(PageActionDoc, {
        maxItems: MAX_ACTIONS,
        description:
          "act: page actions in order (click, type, press, scroll, wait, executeJavascript, screenshot…)",
      }),
    ),
    format: T.Optional(FetchBody.properties.format),
    onlyMainContent: T.Optional(T.Boolean({ description: "read: only the main content (default false)" })),
    ttl: T.Optional(SessionCreateBody.properties.ttl),
    activityTtl: T.Optional(SessionCreateBody.properties.activityTtl),
  },
  { additionalProperties: false },
);
type BrowserToolInput = Static<typeof BrowserToolInput>;

export const BrowserToolOutput = T.Object(
  {
    session: T.Optional(SessionInfo),
    sessions: T.Optional(T.Array(SessionInfo)),
    url: T.Optional(T.String({ description: "The page the session is on" })),
    title: T.Optional(T.String()),
    content: T.Optional(T.String({ description: "read: the page's content in format" })),
    javascriptReturns: T.Optional(
      T.Array(
        T.Object({
          type: T.String(),
          value: T.Unsafe<unknown>({
            anyOf: ["string", "number", "boolean", "object", "array", "null"].map((type) => ({ type })),
          }),
        }),
      ),
    ),
    closed: T.Optional(T.Boolean()),
  },
  { description: "What the operation gave" },
);

const need = (session: string | undefined, op: string) => {
  if (!session) throw new SiphonError("invalid_request", `${op} needs session: the id open gave`);
  return session;
};

export const browserTool: ToolDef<BrowserToolInput> = {
  name: "siphon_browser",
  description:
    "Keep a browser tab open across calls, for pages you must click through or log into: op open (at url) gives a " +
    "session id; op act goes to url and/or runs actions (click, type, press, scroll, executeJavascript, " +
    "screenshot…) in it, keeping what the page holds between calls; op read returns the page as it is now " +
    "(markdown); op close ends it (it also ends by itself after ttl seconds, or activityTtl without a call); op list " +
    "shows yours. Use siphon_fetch instead for a page you only need to read once.",
  input: BrowserToolInput,
  output: BrowserToolOutput,
  annotations: {
    title: "Browser session",
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: true,
  },
  async run(args, ctx) {
    const sessions = sessionsOf(ctx.host.deps.engines);
    const accountId = ctx.host.accountId;
    switch (args.op) {
      case "open": {
        const input = validate(SessionCreateBody, {
          ttl: args.ttl,
          activityTtl: args.activityTtl,
          url: args.url,
        });
        const session = await ctx.host.meter("browser", async () => ({
          body: await sessions.create(accountId, input, ctx.host.deps),
          credits: input.url ? 1 : 0,
        }));
        return {
          text: `Session ${session.id} open at ${session.url}, until ${session.expiresAt} at the latest.`,
          structured: { session, url: session.url },
        };
      }
      case "act": {
        const id = need(args.session, "act");
        sessions.check(accountId, id);
        const input = validate(SessionActBody, { url: args.url, actions: args.actions });
        const outcome = await ctx.host.meter("browser", async () => {
          const done = await sessions.act(accountId, id, input);
          return { body: done, credits: done.visited ? 1 : 0 };
        });
        const images: ToolImage[] = outcome.actions.screenshots.map((shot) => ({
          data: Buffer.from(shot.data).toString("base64"),
          mimeType: "image/png",
        }));
        const lines = [`Session ${id} is at ${outcome.url}.`];
        if (outcome.actions.javascriptReturns.length)
          lines.push("", "## Script returns", jsonBlock(outcome.actions.javascriptReturns));
        return {
          text: lines.join("\n"),
          structured: { url: outcome.url, javascriptReturns: outcome.actions.javascriptReturns },
          images,
        };
      }
      case "read": {
        const id = need(args.session, "read");
        sessions.check(accountId, id);
        const input = validate(SessionReadBody, {
          format: args.format,
          onlyMainContent: args.onlyMainContent,
        });
        const outcome = await ctx.host.meter("browser", async () => {
          const read = await sessions.read(accountId, id, input, { ...ctx.host.deps, signal: ctx.signal });
          return { body: read, credits: 0, tokens: read.tokens };
        });
        const { result } = outcome;
        return {
          text: [`# ${result.title || result.url}`, result.url, "", result.content].join("\n"),
          structured: { url: result.url, title: result.title, content: result.content },
        };
      }
      case "close": {
        const id = need(args.session, "close");
        const { durationMs } = await sessions.close(accountId, id);
        return {
          text: `Session ${id} closed after ${Math.round(durationMs / 1000)} s.`,
          structured: { closed: true },
        };
      }
      default: {
        const list = sessions.list(accountId);
        const text = list.length
          ? list.map((s) => `- ${s.id} at ${s.url} (until ${s.expiresAt})`).join("\n")
          : "No open sessions.";
        return { text, structured: { sessions: list } };
      }
    }
  },
};
