import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Firecrawl, { SdkError } from "@mendable/firecrawl-js";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import { errorOf, startTestApp, type TestApp } from "../helpers/app.ts";
import { makeDocx, makePdf, makePng } from "../helpers/documents.ts";
import { type FakeLlm, startFakeLlm } from "../helpers/fake-llm.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";
import { mcpCall } from "../helpers/mcp-call.ts";
import { run, runCli } from "../helpers/run.ts";

/**
 * Documents sent to siphon (POST /v1/parse, Firecrawl's POST /v2/parse through its SDK) are read
 * as fetched pages are, without fetching anything: the fixture site counts every hit, and stays
 * at none.
 */

const OPERATOR_KEY = "sk-parse-operator";
const PAGE = `<!doctype html><html lang="en"><head><title>Harbour tide tables</title>
<meta name="description" content="When the tide turns at the harbour"></head>
<body><nav><a href="/home">Home</a> <a href="/about">About</a></nav>
<main><article><h1>Harbour tide tables</h1>
<p>High water at the harbour comes twice a day, about fifty minutes later each day than the day before.</p>
<p>Spring tides follow the full and the new moon; neap tides fall between them, with the smallest range.</p>
<p><a href="/tables/june">June's table</a> and <a href="https://other.test/almanac">the almanac</a>.</p>
</article></main><footer>© Harbour office</footer></body></html>`;

let site: FixtureSite;
let llm: FakeLlm;
let app: TestApp;
let operated: TestApp;

beforeAll(async () => {
  site = await startFixtureSite();
  llm = await startFakeLlm({ keys: [OPERATOR_KEY] });
  app = await startTestApp({ escalation: false, maxBodyBytes: 200_000 });
  operated = await startTestApp({
    escalation: false,
    llmProvider: "openai",
    llmApiKey: OPERATOR_KEY,
    openaiBaseUrl: llm.baseUrl("openai"),
  });
});
afterAll(async () => {
  await app.close();
  await operated.close();
  await llm.stop();
  await site.stop();
});

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");

function postJson(body: Record<string, unknown>, on = app) {
  return on.request("/v1/parse", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function postForm(file: Blob, name: string, options?: Record<string, unknown>, on = app) {
  const form = new FormData();
  form.append("file", file, name);
  if (options) form.append("options", JSON.stringify(options));
  return on.request("/v1/parse", { method: "POST", body: form });
}

/** A multipart upload as curl -F sends it: the part's type exactly as given (Bun's Blob would add a UTF-8 charset). */
function postRawForm(bytes: Uint8Array, name: string, type: string, on = app) {
  const boundary = "siphon-test-boundary";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
  return on.request("/v1/parse", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
}

async function resultOf(response: Response): Promise<FetchResult> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as FetchResult;
}

describe("POST /v1/parse", () => {
  test("an HTML upload is read as a fetched page: main content, formats, links against the url given", async () => {
    const result = await resultOf(
      await postForm(new Blob([PAGE], { type: "text/html" }), "tides.html", {
        onlyMainContent: true,
        formats: ["markdown", "text", { type: "question", question: "When do spring tides come?" }],
        url: "https://harbour.test/tides/",
      }),
    );
    expect(result.title).toBe("Harbour tide tables");
    expect(result.markdown).toContain("fifty minutes later each day");
    expect(result.markdown).not.toContain("Harbour office");
    expect(result.text).toContain("Spring tides follow the full and the new moon");
    expect(result.url).toBe("https://harbour.test/tides/");
    expect(result.links).toContain("https://harbour.test/tables/june");
    expect(result.metadata.description).toBe("When the tide turns at the harbour");
    expect(result.answer).toContain("Spring tides follow the full and the new moon");
    expect(result.contentType).toBe("html");
  });

  test("JSON with base64 data: a PDF and a DOCX, their type from the file name", async () => {
    const pdf = await resultOf(
      await postJson({
        filename: "notes.pdf",
        data: base64(makePdf(["Ebb and flow of the estuary"], "Notes")),
      }),
    );
    expect(pdf.contentType).toBe("document");
    expect(pdf.content).toContain("Ebb and flow of the estuary");
    expect(pdf.url).toBe("file:///notes.pdf");
    const docx = await makeDocx([
      { text: "Tide mill", heading: 1 },
      { text: "The mill pond fills at high water." },
    ]);
    const read = await resultOf(
      await postJson({ filename: "mill.docx", data: base64(docx), format: "text" }),
    );
    expect(read.content).toContain("The mill pond fills at high water.");
    expect(site.hits("/")).toBe(0);
  });

  test("documents in other encodings are read in theirs: a meta charset, a part's charset, none at all", async () => {
    // Shift_JIS, named by the page's <meta charset>: "東京の天気" / "今日は晴れです。".
    const tokyo = Buffer.concat([
      Buffer.from('<html><head><meta charset="shift_jis"><title>Tenki</title></head><body><article><h1>'),
      Buffer.from("938c8b9e82cc93568b43", "hex"),
      Buffer.from("</h1><p>"),
      Buffer.from("8da193fa82cd90b082ea82c582b78142", "hex"),
      Buffer.from("</p></article></body></html>"),
    ]);
    const japanese = await resultOf(await postRawForm(tokyo, "tenki.html", "text/html"));
    expect(japanese.content).toContain("# 東京の天気");
    expect(japanese.content).toContain("今日は晴れです。");
    // windows-1252 named by the upload part's charset, and the same bytes with no charset at all.
    const cp1252 = Buffer.from([
      ...Buffer.from("Caf\u00e9 cr\u00e8me ", "latin1"),
      0x97,
      0x20,
      0x93,
      ...Buffer.from("na\u00efve fa\u00e7ade", "latin1"),
      0x94,
    ]);
    const named = await resultOf(await postRawForm(cp1252, "menu.txt", "text/plain; charset=windows-1252"));
    expect(named.content).toContain("Café crème — “naïve façade”");
    const html = Buffer.concat([
      Buffer.from("<html><body><article><p>"),
      cp1252,
      Buffer.from("</p></article></body></html>"),
    ]);
    const unnamed = await resultOf(await postJson({ filename: "menu.html", data: base64(html) }));
    expect(unnamed.content).toContain("Café crème — “naïve façade”");
  });

  test("bad uploads are clear 4xx errors before anything is read", async () => {
    const cases: [Response, number, string][] = [
      [await postJson({ filename: "a.html", data: "%%%not base64%%%" }), 400, "data is not base64"],
      [await postJson({ filename: "a.html" }), 400, "data is required"],
      [await postJson({ data: base64("<p>x</p>") }), 400, "filename"],
      [await postJson({ filename: "a.png", data: base64(makePng()) }), 422, "cannot extract text"],
      [
        await postJson({ filename: "big.html", data: base64("x".repeat(200_001)) }),
        413,
        "at most 200000 bytes",
      ],
      [
        await postJson({ filename: "a.html", data: base64(PAGE), render: true }),
        400,
        'unknown field "render"',
      ],
      [
        await postJson({ filename: "a.html", data: base64(PAGE), formats: ["markdown", "branding"] }),
        400,
        "branding does not apply",
      ],
      [await postForm(new Blob([""]), "empty.html"), 400, "empty.html is empty"],
      [
        await postJson({ filename: "a.html", data: base64(PAGE), url: "ftp://x.test/" }),
        403,
        "The ftp: scheme is not allowed",
      ],
    ];
    for (const [response, status, message] of cases) {
      expect(response.status).toBe(status);
      expect((await errorOf(response)).message).toContain(message);
    }
  });
});

describe("Firecrawl's parse through the SDK (POST /v2/parse)", () => {
  test("an uploaded file comes back as a document; json and summary use the operator's LLM", async () => {
    const fc = new Firecrawl({ apiUrl: operated.listen() });
    llm.reply = () => ({ text: "High water comes twice a day." });
    const doc = await fc.parse(
      { data: Buffer.from(PAGE), filename: "tides.html", contentType: "text/html" },
      { formats: ["markdown", "summary", "links"] },
    );
    expect(doc.markdown).toContain("fifty minutes later each day");
    expect(doc.markdown).not.toContain("Harbour office");
    expect(doc.summary).toBe("High water comes twice a day.");
    expect(doc.metadata?.title).toBe("Harbour tide tables");
    expect(doc.metadata?.sourceURL).toBe("file:///tides.html");
    const pdf = await fc.parse({
      data: Buffer.from(makePdf(["Slack water at the turn"])),
      filename: "slack.pdf",
    });
    expect(pdf.markdown).toContain("Slack water at the turn");
  });

  test("a type siphon cannot read is the SDK's error, not a crash", async () => {
    const fc = new Firecrawl({ apiUrl: app.listen() });
    const error = await fc
      .parse({ data: Buffer.from(makePng()), filename: "logo.png", contentType: "image/png" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).message).toContain("cannot extract text");
  });
});

describe("siphon_parse (MCP)", () => {
  test("a document's bytes come back as a page, in parts when long; bad base64 is the tool's error", async () => {
    const { key } = await app.createKey("max");
    const read = await mcpCall(app, key, "siphon_parse", {
      filename: "tides.html",
      data: base64(PAGE),
      onlyMainContent: true,
    });
    expect(read.isError).toBeFalsy();
    expect(String(read.structuredContent.content)).toContain("fifty minutes later each day");
    expect(read.structuredContent.title).toBe("Harbour tide tables");
    const part = await mcpCall(app, key, "siphon_parse", {
      filename: "tides.html",
      data: base64(PAGE),
      maxLength: 1000,
      startIndex: 100,
    });
    expect((part.structuredContent.page as { startIndex: number }).startIndex).toBe(100);
    const bad = await mcpCall(app, key, "siphon_parse", { filename: "x.html", data: "%%%" });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]?.text).toContain("data is not base64");
  });
});

describe("siphon fetch of a local file or stdin", () => {
  const CLI_MS = 30_000;
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "siphon-parse-cli-"));
    writeFileSync(join(home, "tides.html"), PAGE);
    writeFileSync(join(home, "slack.pdf"), makePdf(["Slack water at the turn of the tide"]));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  test(
    "a file path is read as a page, here and through a server; stdin with --stdin-html; mixed or live options refused",
    async () => {
      const html = await runCli(["fetch", join(home, "tides.html"), "--only-main-content"], home);
      expect(html.code).toBe(0);
      expect(html.stdout).toContain("fifty minutes later each day");
      expect(html.stdout).not.toContain("Harbour office");
      const pdf = await runCli(["fetch", join(home, "slack.pdf"), "--json"], home);
      expect(pdf.code).toBe(0);
      expect((JSON.parse(pdf.stdout) as FetchResult).content).toContain(
        "Slack water at the turn of the tide",
      );

      const remote = await runCli(
        ["fetch", join(home, "slack.pdf"), "--api-url", app.listen(), "--format", "text"],
        home,
      );
      expect(remote.stderr).toBe("");
      expect(remote.stdout).toContain("Slack water at the turn of the tide");

      const piped = await run(
        [
          process.execPath,
          join(import.meta.dir, "..", "..", "cli", "main.ts"),
          "fetch",
          "-",
          "--stdin-html",
          "--format",
          "text",
        ],
        {
          env: { PATH: process.env.PATH ?? "", HOME: home, SIPHON_HOME: home },
          stdin: PAGE,
        },
      );
      expect(piped.code).toBe(0);
      expect(piped.stdout).toContain("Spring tides follow the full and the new moon");

      const mixed = await runCli(["fetch", join(home, "tides.html"), `${site.url}/article`], home);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toContain("Give either local files or URLs, not both");
      const live = await runCli(["fetch", join(home, "tides.html"), "--render"], home);
      expect(live.code).toBe(2);
      expect(live.stderr).toContain("render does not apply");
      expect(site.hits("/article")).toBe(0);
    },
    CLI_MS,
  );
});
