import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../config.ts";
import type { FetchEngine } from "../types.ts";
import { createBrowserEngine } from "./engine.ts";
import { type BrowserPool, createBrowserPool, SESSION_KEEP_MS } from "./pool.ts";

/**
 * Browsing sessions (a crawl or batch job's pages): a page is kept, unwiped, for its session's
 * next request, and wiped before anyone else has it. Two pages in the pool: a session's next
 * request, asked for as soon as the last one answers, must still get the page kept for it.
 */

const BROWSER_TEST_MS = 30_000;
const config = loadConfig(
  { SIPHON_HOME: "/nonexistent/siphon-test-home" },
  { disableSsrfProtection: true, browserConcurrency: 2 },
);

let pool: BrowserPool;
let engine: FetchEngine;
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  pool = createBrowserPool(config);
  engine = createBrowserEngine(config, pool, { stealth: false });
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      const html = (body: string, headers: Record<string, string> = {}) =>
        new Response(`<!DOCTYPE html><html><body>${body}</body></html>`, {
          headers: { "content-type": "text/html", ...headers },
        });
      if (url.pathname === "/set") {
        return html(`<script>localStorage.setItem("seen", "yes")</script>set`, {
          "set-cookie": "visitor=returning; Path=/",
        });
      }
      if (url.pathname === "/get") {
        const seen = `document.getElementById("seen").textContent = JSON.stringify({ stored: localStorage.getItem("seen"), history: history.length })`;
        return html(
          `<p id="cookie">${request.headers.get("cookie") ?? "no cookie"}</p><pre id="seen"></pre><script>${seen}</script>`,
        );
      }
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(async () => {
  await pool.close();
  server.stop(true);
});

interface Seen {
  cookie: string;
  stored: string | null;
  /** Entries in the tab's history: a wipe resets it. */
  history: number;
}

/** Renders /path in the browser engine as part of `session` and reports what the page saw. */
async function visit(path: string, session?: string): Promise<Seen> {
  const page = await engine.fetch(`http://127.0.0.1:${server.port}${path}`, { session });
  const html = new TextDecoder().decode(page.body);
  const cookie = /<p id="cookie">(.*?)<\/p>/.exec(html)?.[1] ?? "";
  const seen = JSON.parse(/<pre id="seen">(.*?)<\/pre>/.exec(html)?.[1] ?? "{}");
  return { cookie, stored: seen.stored ?? null, history: seen.history ?? 0 };
}

describe("browsing sessions", () => {
  test(
    "pages of one session share cookies and storage; no other request or session sees them",
    async () => {
      await visit("/set", "job-a");
      const again = await visit("/get", "job-a");
      expect(again.cookie).toBe("visitor=returning");
      expect(again.stored).toBe("yes");

      const stranger = await visit("/get");
      expect(stranger.cookie).toBe("no cookie");
      expect(stranger.stored).toBeNull();

      await visit("/set", "job-a");
      const otherJob = await visit("/get", "job-b");
      expect(otherJob.cookie).toBe("no cookie");
      expect(otherJob.stored).toBeNull();
      // Kept, the tab's history grew by the session's pages; wiped, it holds one page past blank.
      expect(otherJob.history).toBe(2);
      expect(again.history).toBe(3);
    },
    BROWSER_TEST_MS,
  );

  test(
    `a kept page is wiped once its session has not asked for ${SESSION_KEEP_MS} ms`,
    async () => {
      await visit("/set", "job-c");
      await Bun.sleep(SESSION_KEEP_MS + 1_000);
      const later = await visit("/get", "job-c");
      expect(later.cookie).toBe("no cookie");
      expect(later.stored).toBeNull();
    },
    BROWSER_TEST_MS,
  );
});
