import { writeFile } from "node:fs/promises";
import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import type { Capture } from "../../src/fetch/types.ts";
import { takeScreenshot } from "../../src/pipeline/screenshot.ts";
import { ScreenshotBody, type ScreenshotData } from "../../src/schemas/screenshot.ts";
import { validate } from "../../src/schemas/validate.ts";
import { actionsFlag, browserArgs, cookiesFlag, defined, headersFlag, numberFlag } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

/** A server's Screenshot response, with the image decoded from its data: URL. */
async function remoteScreenshot(response: {
  data: ScreenshotData;
}): Promise<{ data: ScreenshotData; image: Capture }> {
  const { data } = response;
  const base64 = data.screenshot.slice(data.screenshot.indexOf(",") + 1);
  const format = data.metadata.format === "png" ? "png" : "jpeg";
  const image: Capture = {
    data: new Uint8Array(Buffer.from(base64, "base64")),
    format,
    width: data.metadata.width,
    height: data.metadata.height,
  };
  return { data, image };
}

type Args = Record<string, string | boolean | string[] | undefined> & { _: string[] };

/** Where the image goes when -o is not given: stdout when it is a pipe, else <host>.<ext> in the current folder. */
function defaultOutput(url: string, extension: string): string | null {
  if (!process.stdout.isTTY) return null;
  let host = "screenshot";
  try {
    host = new URL(url).hostname.replace(/[^a-z0-9.-]/gi, "_") || host;
  } catch {
    // The URL is validated later; a bad one never reaches the file name.
  }
  return `${host}.${extension}`;
}

export default defineCommand({
  meta: { name: "screenshot", description: "Render a page in Chromium and save a PNG or JPEG" },
  args: {
    url: { type: "positional", required: true, description: "URL to capture" },
    output: {
      type: "string",
      alias: "o",
      description: "Image file to write (default: stdout when piped, else <host>.png)",
      valueHint: "file",
    },
    "full-page": { type: "boolean", description: "Capture the whole scrollable page" },
    width: { type: "string", description: "Viewport width, 100-5000 (default 1280)", valueHint: "px" },
    height: { type: "string", description: "Viewport height, 100-5000 (default 720)", valueHint: "px" },
    format: { type: "string", description: "png (default), jpeg or jpg", valueHint: "fmt" },
    quality: { type: "string", description: "JPEG quality 1-100", valueHint: "n" },
    "wait-for": { type: "string", description: "ms to wait after load", valueHint: "ms" },
    timeout: { type: "string", description: "Total timeout, ms (default 30000)", valueHint: "ms" },
    ...browserArgs,
    json: { type: "boolean", description: "Print the Screenshot response (data: URL and metadata) as JSON" },
    ...remoteArgs,
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  },
  async run({ args }) {
    const a = args as unknown as Args;
    setQuiet(a.quiet === true);
    const input = validate(
      ScreenshotBody,
      defined({
        url: a.url,
        fullPage: a["full-page"],
        width: numberFlag(a.width, "width"),
        height: numberFlag(a.height, "height"),
        format: a.format,
        quality: numberFlag(a.quality, "quality"),
        waitFor: numberFlag(a["wait-for"], "wait-for"),
        timeout: numberFlag(a.timeout, "timeout"),
        stealth: a.stealth,
        actions: actionsFlag(a.actions),
        headers: headersFlag(a.headers),
        cookies: cookiesFlag(a.cookies),
      }),
    );
    const remote = remoteOf(a, loadConfig());
    const ctx = remote ? null : await openContext();
    try {
      const { data, image } = ctx
        ? await takeScreenshot(input, ctx)
        : await remoteScreenshot(
            await callApi<{ data: ScreenshotData }>(remote!, "POST", "/v1/screenshot", input),
          );
      if (a.json) await writeStdout(`${JSON.stringify({ success: true, data })}\n`);
      const file =
        typeof a.output === "string" ? a.output : a.json ? null : defaultOutput(input.url, image.format);
      if (file) {
        await writeFile(file, image.data);
        log.success(
          `wrote ${file} (${image.width}x${image.height} ${image.format}, ${image.data.length} bytes)`,
        );
      } else if (!a.json) {
        if (process.stdout.isTTY) throw new SiphonError("invalid_request", "Give -o FILE to write the image");
        await new Promise<void>((resolve, reject) =>
          process.stdout.write(image.data, (error) => (error ? reject(error) : resolve())),
        );
      }
      return 0;
    } finally {
      await ctx?.close();
    }
  },
});
