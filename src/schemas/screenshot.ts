import { type Static, Type as T } from "@sinclair/typebox";
import { MAX_ACTIONS, PageActionDoc } from "./actions.ts";
import { StringEnum } from "./common.ts";
import { Cookies, Headers } from "./fetch.ts";

/** POST /v1/screenshot body (SPEC), also built by `siphon screenshot` from its flags. */
export const ScreenshotBody = T.Object(
  {
    url: T.String({ description: "http(s) URL, at most 2048 characters" }),
    fullPage: T.Boolean({ default: false, description: "Capture the whole scrollable page" }),
    width: T.Integer({ minimum: 100, maximum: 5000, default: 1280, description: "Viewport width, px" }),
    height: T.Integer({ minimum: 100, maximum: 5000, default: 720, description: "Viewport height, px" }),
    format: StringEnum(["png", "jpeg", "jpg"], { default: "png", description: "Image format" }),
    quality: T.Optional(T.Integer({ minimum: 1, maximum: 100, description: "JPEG quality" })),
    waitFor: T.Integer({ minimum: 0, maximum: 60_000, default: 0, description: "ms to wait after load" }),
    timeout: T.Integer({
      minimum: 1000,
      maximum: 120_000,
      default: 30_000,
      description: "Total timeout, ms",
    }),
    stealth: T.Boolean({ default: false, description: "Use the stealth browser (bot-detection evasions)" }),
    actions: T.Optional(T.Array(PageActionDoc, { maxItems: MAX_ACTIONS, description: "Run before capture" })),
    headers: T.Optional(Headers),
    cookies: T.Optional(Cookies),
  },
  { additionalProperties: false },
);
export type ScreenshotInput = Static<typeof ScreenshotBody>;

/** The Screenshot response's `data` (SPEC). */
export const ScreenshotData = T.Object({
  url: T.String(),
  screenshot: T.String({ description: "data: URL carrying the base64 image" }),
  metadata: T.Object({
    sourceURL: T.String(),
    format: T.String(),
    width: T.Number(),
    height: T.Number(),
    fullPage: T.Boolean(),
  }),
});
export type ScreenshotData = Static<typeof ScreenshotData>;

export const ScreenshotResponse = T.Object({ success: T.Literal(true), data: ScreenshotData });
