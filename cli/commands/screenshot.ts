import { writeFile } from "node:fs/promises";
import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { SiphonError } from "../../src/errors.ts";
import type { Capture } from "../../src/fetch/types.ts";
import { takeScreenshot } from "../../src/pipeline/screenshot.ts";
import { ScreenshotBody, type ScreenshotData } from "../../src/schemas/screenshot.ts";
import { browserFlagOptions } from "../browser-flags.ts";
import { openContext } from "../context.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";
import { schemaFlags, validateFlags } from "../schema-flags.ts";

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

/** POST /v1/screenshot's fields. */
const shotFlags = schemaFlags(ScreenshotBody, {
  fullPage: true,
  width: { valueHint: "px" },
  height: { valueHint: "px" },
  format: true,
  quality: { description: "JPEG quality, 1-100" },
  waitFor: { valueHint: "ms" },
  timeout: { valueHint: "ms" },
  ...browserFlagOptions,
});

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
    ...shotFlags.args,
    json: { type: "boolean", description: "Print the Screenshot response (data: URL and metadata) as JSON" },
    ...remoteArgs,
    quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  },
  async run({ args }) {
    const a = args as unknown as Args;
    setQuiet(a.quiet === true);
    const input = validateFlags(ScreenshotBody, { url: a.url, ...shotFlags.read(a) }, [shotFlags]);
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
