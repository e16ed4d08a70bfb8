import { Elysia } from "elysia";
import { LOCAL_ACCOUNT_ID } from "../../src/auth/principal.ts";
import type { FetchDeps } from "../../src/pipeline/fetch-page.ts";
import { parseDocument } from "../../src/pipeline/parse.ts";
import { FetchResult } from "../../src/schemas/fetch.ts";
import { ParseBody, ParseOptions } from "../../src/schemas/parse.ts";
import { validate } from "../../src/schemas/validate.ts";
import type { Guard } from "../guard.ts";
import { metered } from "../guard.ts";
import { jsonRequestBody, responses } from "../openapi.ts";
import { readUpload } from "../upload.ts";

const description =
  "Reads a document you send (HTML, PDF, DOCX, JSON, XML, text) as POST /v1/fetch reads a page: the same " +
  "extraction and formats (markdown, text, html, links, images, json extraction, summary, highlights, " +
  "attributes, question), nothing fetched or cached. Send multipart/form-data with a `file` part and an " +
  "optional `options` part of JSON (filename, contentType, url and the fetch options below), or JSON with " +
  "the bytes in base64 `data`. Documents up to SIPHON_MAX_BODY_BYTES (413 past it); render, actions, " +
  "screenshots, branding and change tracking are 400s (a document has no live page). One credit.";

/** POST /v1/parse: translate the upload, meter it, call the core. */
export function parseRoutes(deps: FetchDeps, guard: Guard, log?: (line: string) => void) {
  return new Elysia({ name: "routes:parse" }).post(
    "/v1/parse",
    async ({ body, set, request }) => {
      const upload = await readUpload(body);
      const options = validate(ParseOptions, {
        ...upload.options,
        filename: upload.options.filename ?? upload.filename,
        contentType: upload.options.contentType ?? upload.contentType,
      });
      return metered(guard, request, set, "parse", async (admission) => {
        const outcome = await parseDocument(
          { options, body: upload.bytes, accountId: admission?.principal.account.id ?? LOCAL_ACCOUNT_ID },
          { ...deps, signal: request.signal, llmLog: log },
        );
        return { body: outcome.result, credits: outcome.credits, tokens: outcome.tokens };
      });
    },
    {
      detail: {
        summary: "Read a document you send (upload)",
        description,
        requestBody: jsonRequestBody(ParseBody),
        responses: responses(FetchResult),
      } as never,
    },
  );
}
