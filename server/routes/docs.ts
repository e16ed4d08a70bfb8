/**
 * GET /docs (the API reference), its assets, and GET / (an index of what the server offers). The
 * reference UI is swagger-ui-dist, pinned in package.json and embedded in the binary at build
 * time: the page loads nothing from anywhere else, and its CSP allows nothing else.
 */
import { Elysia } from "elysia";
import cssPath from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import bundlePath from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { SiphonError } from "../../src/errors.ts";
import { escapeHtml } from "../dashboard/html.ts";
import initPath from "../docs/init.js" with { type: "file" };

/** Scripts and styles from this origin only; swagger-ui sets style attributes, hence unsafe-inline for styles. */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const ASSETS = new Map<string, { path: string; type: string }>([
  ["swagger-ui-bundle.js", { path: bundlePath, type: "text/javascript; charset=utf-8" }],
  ["swagger-ui.css", { path: cssPath, type: "text/css; charset=utf-8" }],
  ["init.js", { path: initPath, type: "text/javascript; charset=utf-8" }],
]);

function docsPage(version: string): string {
  const description =
    "The HTTP API of siphon, a toolkit that turns web pages into clean, model-ready content.";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>siphon ${escapeHtml(version)} API reference</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

/** The links GET / offers, as paths. */
const INDEX = {
  dashboard: "/dashboard",
  docs: "/docs",
  openapi: "/docs/json",
  health: "/health",
  mcp: "/mcp",
};

function indexPage(version: string): string {
  const item = (href: string, label: string, note: string) =>
    `<li><a href="${href}">${label}</a>: ${note}</li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>siphon ${escapeHtml(version)}</title>
</head>
<body>
<h1>siphon ${escapeHtml(version)}</h1>
<p>This server turns web pages into clean, model-ready content.</p>
<ul>
${item(INDEX.dashboard, "Dashboard", "keys, usage, jobs and a playground")}
${item(INDEX.docs, "API reference", "every route and parameter (the OpenAPI document is at /docs/json)")}
${item(INDEX.health, "Health", "status and version")}
</ul>
<p>MCP clients connect to <code>/mcp</code>.</p>
</body>
</html>
`;
}

const wantsHtml = (request: Request) => {
  const accept = request.headers.get("accept") ?? "";
  return /\btext\/html\b/.test(accept) && !/^application\/json\b/.test(accept);
};

/** GET / and GET /docs with its assets: never metered, no key. */
export function docsRoutes(version: string) {
  const page = docsPage(version);
  const index = indexPage(version);
  return new Elysia({ name: "routes:docs" })
    .get(
      "/",
      ({ request }) =>
        wantsHtml(request)
          ? new Response(index, {
              headers: {
                "content-type": "text/html; charset=utf-8",
                "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
              },
            })
          : { name: "siphon", version, links: INDEX },
      {
        detail: {
          summary: "What this server offers",
          description:
            "A browser (Accept: text/html) gets a page linking to the dashboard, the API reference and the health check; any other client gets {name, version, links: {dashboard, docs, openapi, health, mcp}}.",
        },
      },
    )
    .get(
      "/docs",
      () =>
        new Response(page, {
          headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": DOCS_CSP },
        }),
      { detail: { hide: true } },
    )
    .get(
      "/docs/assets/:name",
      ({ params }) => {
        const asset = ASSETS.get(params.name);
        if (!asset) throw new SiphonError("not_found", `No asset ${params.name} of the API reference`);
        return new Response(Bun.file(asset.path), {
          headers: {
            "content-type": asset.type,
            "cache-control": "public, max-age=86400",
            "x-content-type-options": "nosniff",
          },
        });
      },
      { detail: { hide: true } },
    );
}
