import { Elysia } from "elysia";
import { operationCredits } from "../../src/pipeline/credits.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { validate } from "../../src/schemas/validate.ts";
import { YoutubeBody, YoutubeQuery, YoutubeResponse } from "../../src/schemas/youtube.ts";
import { youtube } from "../../src/youtube/index.ts";
import { ACCEPTED_FORMS } from "../../src/youtube/url.ts";
import { type Guard, metered } from "../guard.ts";
import { queryParameters, responses } from "../openapi.ts";

const description =
  `A YouTube video's transcript, metadata and chapters. url is a video URL (${ACCEPTED_FORMS.join(", ")}) ` +
  "or an 11-character id; anything else is a 400 invalid_request naming these forms. language picks the " +
  "caption language (BCP 47: en, de, pt-BR; en also finds en-GB); without it, or when the video lacks it, " +
  "the best available track is read, uploaded captions over automatic ones, and `language` says which. " +
  "Metadata and caption tracks come from YouTube's InnerTube player API (youtubei.js), the captions from " +
  "timedtext; chapters from description lines starting with a timestamp. A video without captions is a " +
  "404 not_found (never an empty success); a removed or private one too. YouTube refusing siphon (its bot " +
  "check, HTTP 429) is a 403 blocked. Credits: 1.";

/** GET /v1/youtube: translate the query, meter it (1 credit), call the core. */
export function youtubeRoutes(deps: FetchDeps, guard: Guard) {
  return new Elysia({ name: "routes:youtube" }).get(
    "/v1/youtube",
    ({ query, set, request }) => {
      const input = validate(YoutubeBody, query as Record<string, unknown>);
      return metered(guard, request, set, "youtube", async () => ({
        body: await youtube(input, { config: deps.config, signal: request.signal }),
        credits: operationCredits.youtube(),
      }));
    },
    {
      detail: {
        summary: "Transcript, metadata and chapters of a YouTube video",
        description,
        parameters: queryParameters(YoutubeQuery),
        responses: responses(YoutubeResponse, [400, 401, 403, 404, 429, 502, 504]),
      } as never,
    },
  );
}
