import { Elysia } from "elysia";

/** GET /health: no key, never rate limited (SPEC Health response). */
export function healthRoutes(version: string, startedAt: number) {
  return new Elysia({ name: "routes:health" }).get(
    "/health",
    () => ({
      status: "ok",
      version,
      uptime: Math.floor((Date.now() - startedAt) / 1000),
      timestamp: new Date().toISOString(),
    }),
    { detail: { summary: "Health and version" } },
  );
}
