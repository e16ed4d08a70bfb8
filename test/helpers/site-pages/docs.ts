import { esc, layout } from "./layout.ts";

export const DOCS_TITLE = "Configuring the HTTP client";
/** A line of the TypeScript code block (class="language-ts"). */
export const DOCS_TS_CODE =
  'const client = createClient({ baseUrl: "https://api.example.com", retries: 3 });';
/** The command in the bash code block (class="language-bash"). */
export const DOCS_BASH_CODE = "npm install @fixture/http-client";
/** Header cells of the options table. */
export const DOCS_TABLE_HEADERS = ["Option", "Type", "Default", "Description"] as const;
/** Text in the docs sidebar navigation; it is chrome. */
export const DOCS_SIDEBAR_TEXT = "Migrating from v1";

const TS_BLOCK = `import { createClient } from "@fixture/http-client";

${DOCS_TS_CODE}
const user = await client.get<User>("/users/42");
if (user.name.length > 0 && user.age < 100) console.log(user.name);`;

const OPTIONS: [string, string, string, string][] = [
  ["baseUrl", "string", "—", "Prefix for every request path."],
  ["retries", "number", "2", "How many times a failed request is retried."],
  ["timeout", "number", "10000", "Milliseconds before a request is aborted."],
  ["headers", "Record<string, string>", "{}", "Headers sent with every request."],
];

/** A documentation page: sidebar, table of contents, code blocks and an options table. */
export function docsPage(): string {
  const rows = OPTIONS.map((cells) => `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join(
    "\n",
  );
  const body = `<div class="docs-layout">
  <aside class="sidebar" aria-label="Documentation">
    <nav><ul>
      <li><a href="/docs/getting-started">Getting started</a></li>
      <li><a href="/docs" aria-current="page">Configuration</a></li>
      <li><a href="/docs/interceptors">Interceptors</a></li>
      <li><a href="/docs/migrating">${DOCS_SIDEBAR_TEXT}</a></li>
    </ul></nav>
  </aside>
  <main class="docs-content">
    <nav class="breadcrumbs"><a href="/docs">Docs</a> › Configuration</nav>
    <h1 id="configuring">${DOCS_TITLE}</h1>
    <nav class="toc" aria-label="On this page"><p>On this page</p><ul>
      <li><a href="#install">Installation</a></li><li><a href="#create">Creating a client</a></li><li><a href="#options">Options</a></li>
    </ul></nav>
    <p>The client is configured once, when it is created. Every option can be overridden per request.</p>
    <h2 id="install">Installation</h2>
    <p>Install the package with your package manager:</p>
    <pre><code class="language-bash">${esc(DOCS_BASH_CODE)}</code></pre>
    <h2 id="create">Creating a client</h2>
    <p>Call <code>createClient</code> with a base URL. Requests that fail with a network error are retried.</p>
    <pre><code class="language-ts">${esc(TS_BLOCK)}</code></pre>
    <div class="admonition warning"><p><strong>Warning:</strong> never put API secrets in <code>headers</code> on the browser side.</p></div>
    <h2 id="options">Options</h2>
    <table>
      <thead><tr>${DOCS_TABLE_HEADERS.map((h) => `<th>${h}</th>`).join("")}</tr></thead>
      <tbody>
${rows}
      </tbody>
    </table>
    <p>Next: <a href="interceptors">Interceptors</a> let you change requests before they are sent.</p>
    <div class="feedback">Was this page helpful? <button>Yes</button> <button>No</button></div>
  </main>
</div>`;
  return layout({ title: `${DOCS_TITLE} – Fixture HTTP Client docs`, body });
}
