import { html } from "./dynamic.ts";
import { layout } from "./layout.ts";

/**
 * Pages whose site publishes a markdown twin (src/pipeline/site-markdown.ts): by content
 * negotiation, a <link rel=alternate>, a Link header; twins that are missing, an HTML error page,
 * a stub, an error in markdown, or on another origin. Every page has the same article; every
 * good twin carries it with TWIN_MARK, a line the HTML does not have.
 */

export const TWIN_TITLE = "Tending a tide mill";
/** A line only the markdown twins carry: its presence says the content came from the twin. */
export const TWIN_MARK = "Written by the miller, in markdown.";
/** Text of the article both the page and its twins hold. */
export const TWIN_TEXT = "The mill pond fills on the flood tide and the gates close at high water.";

const PARAGRAPHS = [
  TWIN_TEXT,
  "As the tide falls the miller opens the sluice, and the water turns the wheel for four to five hours until the pond is low.",
  "Spring tides give the longest milling; neap tides barely cover the sill, so the miller plans the week by the almanac.",
  "Grain is ground on the ebb, sacked by evening, and carted to the bakers on the quay before the next flood.",
];

const twinMarkdown = (title = TWIN_TITLE) =>
  `---\ntitle: ${title}\ndescription: "How the miller works the tide."\nauthor: The miller\nlang: en\n---\n\n# ${title}\n\n${TWIN_MARK}\n\n${PARAGRAPHS.join("\n\n")}\n\n` +
  "## Further reading\n\n- [The almanac](/md/almanac)\n- [Sluice gates](https://127.0.0.1/md/sluices)\n";

function articleHtml(head = ""): string {
  const body = `<article><h1>${TWIN_TITLE}</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join("")}</article>`;
  return layout({ title: TWIN_TITLE, head, body });
}

const markdown = (text: string, status = 200, type = "text/markdown; charset=utf-8") =>
  new Response(text, { status, headers: { "content-type": type } });

const announce = (twin: string) => `<link rel="alternate" type="text/markdown" href="${twin}">`;

type Handler = (request: Request, url: URL) => Response;

/** Whether the request states markdown in its Accept (a negotiating server's test). */
const wantsMarkdown = (request: Request) => /text\/markdown/i.test(request.headers.get("accept") ?? "");

/** The routes of the site-markdown pages, for the fixture site's table; `other` is another origin of it. */
export function siteMarkdownRoutes(other: () => string): [string, Handler][] {
  return [
    // Content negotiation: markdown to an Accept that states it, HTML otherwise.
    [
      "/md/negotiate",
      (request) =>
        wantsMarkdown(request)
          ? new Response(twinMarkdown(), {
              headers: { "content-type": "text/markdown; charset=utf-8", vary: "Accept" },
            })
          : html(articleHtml(), 200, { vary: "Accept" }),
    ],
    // Negotiates, but its markdown is a stub: the page's own extraction stands.
    [
      "/md/negotiate-stub",
      (request) =>
        wantsMarkdown(request) ? markdown(`# ${TWIN_TITLE}\n`) : html(articleHtml(), 200, { vary: "Accept" }),
    ],
    ["/md/link", () => html(articleHtml(announce("/md/link.md")))],
    ["/md/link.md", () => markdown(twinMarkdown())],
    [
      "/md/header",
      () => html(articleHtml(), 200, { link: '</md/header.md>; rel="alternate"; type="text/markdown"' }),
    ],
    ["/md/header.md", () => markdown(twinMarkdown())],
    ["/md/missing", () => html(articleHtml(announce("/md/missing.md")))],
    // The twin a page announces but the site does not have: a 404 HTML page.
    ["/md/missing.md", () => html("<html><body><h1>Not found</h1></body></html>", 404)],
    ["/md/html-error", () => html(articleHtml(announce("/md/html-error.md")))],
    // A twin URL answered 200 with an HTML error page.
    ["/md/html-error.md", () => html("<html><body><h1>Something went wrong</h1></body></html>")],
    ["/md/stub", () => html(articleHtml(announce("/md/stub.md")))],
    ["/md/stub.md", () => markdown(`# ${TWIN_TITLE}\n\nSee the page.\n`)],
    ["/md/error-md", () => html(articleHtml(announce("/md/error-md.md")))],
    ["/md/error-md.md", () => markdown("# 404 Not Found\n\nThe page you asked for is not here.\n")],
    // A twin that never answers (the fixture's /hang): the page is answered without it.
    ["/md/slow-twin", () => html(articleHtml(announce("/hang")))],
    // A twin on another origin: never fetched.
    ["/md/offsite", () => html(articleHtml(announce(`${other()}/md/link.md`)))],
  ];
}
