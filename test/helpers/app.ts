import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../../server/app.ts";
import { type ConfigOverrides, loadConfig } from "../../src/config.ts";
import { createEngines } from "../../src/pipeline/engines.ts";
import { openStore } from "../../src/store/index.ts";

export interface TestApp {
  /** Sends a request to the app in process (no socket). */
  request(path: string, init?: RequestInit): Promise<Response>;
  home: string;
  close(): Promise<void>;
}

/**
 * An in-process server on a fresh SQLite home. SSRF protection is off by
 * default because the fixture site lives on loopback; pass
 * `{ disableSsrfProtection: false }` to test the guard itself.
 */
export async function startTestApp(overrides: ConfigOverrides = {}): Promise<TestApp> {
  const home = mkdtempSync(join(tmpdir(), "siphon-test-"));
  const config = loadConfig({}, { home, disableSsrfProtection: true, ...overrides });
  const store = await openStore(config);
  const engines = createEngines(config);
  const app = createApp({ config, store, engines });
  return {
    home,
    request: (path, init) => app.handle(new Request(`http://localhost${path}`, init)),
    async close() {
      await engines.close();
      await store.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Reads a format-B error body and checks its envelope. */
export async function errorOf(
  response: Response,
): Promise<{ type: string; message: string; requestId: string }> {
  const body = (await response.json()) as {
    success: boolean;
    error: { type: string; message: string };
    metadata: { requestId: string };
  };
  if (body.success !== false) throw new Error(`expected success:false, got ${JSON.stringify(body)}`);
  return { ...body.error, requestId: body.metadata.requestId };
}
