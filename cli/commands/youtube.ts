import { Type } from "@sinclair/typebox";
import { defineCommand } from "citty";
import { loadConfig } from "../../src/config.ts";
import { StringEnum } from "../../src/schemas/common.ts";
import { validate } from "../../src/schemas/validate.ts";
import {
  YOUTUBE_FORMATS,
  YoutubeBody,
  type YoutubeInput,
  type YoutubeResponse,
} from "../../src/schemas/youtube.ts";
import { formatTranscript } from "../../src/youtube/format.ts";
import { youtube } from "../../src/youtube/index.ts";
import { defined } from "../browser-flags.ts";
import { refuseTogether } from "../flag-rules.ts";
import { log, setQuiet, writeStdout } from "../output.ts";
import { callApi, remoteArgs, remoteOf } from "../remote.ts";

const args = {
  url: {
    type: "positional",
    required: true,
    description: "The video: a youtube.com watch, shorts, embed or live URL, a youtu.be link, or the id",
  },
  format: {
    type: "string",
    description: `Output: ${YOUTUBE_FORMATS.join(", ")} (default txt)`,
    valueHint: "fmt",
  },
  lang: {
    type: "string",
    description: "Caption language (en, de, pt-BR); default: the best available, uploaded over automatic",
    valueHint: "code",
  },
  json: { type: "boolean", description: "Print the YouTube response as JSON (same as --format json)" },
  quiet: { type: "boolean", alias: "q", description: "Only print errors on stderr" },
  ...remoteArgs,
} as const;

type Args = Record<string, string | boolean | string[] | undefined>;

/** --format, checked the way the API checks its fields. */
const FormatFlag = Type.Object({
  format: StringEnum([...YOUTUBE_FORMATS], { default: "txt" }),
});

/** Asks a siphon server: GET /v1/youtube. */
function youtubeRemote(
  input: YoutubeInput,
  remote: NonNullable<ReturnType<typeof remoteOf>>,
): Promise<YoutubeResponse> {
  const query = new URLSearchParams(
    defined({ url: input.url, language: input.language }) as Record<string, string>,
  );
  return callApi<YoutubeResponse>(remote, "GET", `/v1/youtube?${query}`);
}

export default defineCommand({
  meta: {
    name: "youtube",
    description: "Transcript, metadata and chapters of a YouTube video (txt, srt, vtt, md or json)",
  },
  args,
  async run({ args: parsed }) {
    const a = parsed as unknown as Args;
    setQuiet(a.quiet === true);
    if (a.format !== "json") refuseTogether(a, "json", "format", "--json is --format json");
    const { format } = validate(FormatFlag, defined({ format: a.json ? "json" : a.format }));
    const input = validate(YoutubeBody, defined({ url: a.url, language: a.lang }));
    const config = loadConfig();
    const remote = remoteOf(a, config);
    const response = remote ? await youtubeRemote(input, remote) : await youtube(input, { config });
    const primary = (code: string) => code.toLowerCase().split("-")[0];
    if (input.language && primary(response.language) !== primary(input.language)) {
      log.warn(
        `The video has no ${input.language} captions; this transcript is ${response.language} (available: ${response.availableLanguages.join(", ")})`,
      );
    }
    await writeStdout(formatTranscript(response, format));
    return 0;
  },
});
