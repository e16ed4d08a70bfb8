import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configSources, loadConfig, settingsTable } from "./config.ts";
import { SiphonError } from "./errors.ts";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});
/** A SIPHON_HOME holding `config` as config.json (text as is, anything else as JSON). */
function homeWith(config: unknown): string {
  const home = mkdtempSync(join(tmpdir(), "siphon-config-"));
  homes.push(home);
  writeFileSync(join(home, "config.json"), typeof config === "string" ? config : JSON.stringify(config));
  return home;
}
const refusal = (home: string) => {
  try {
    loadConfig({ SIPHON_HOME: home });
  } catch (error) {
    return error as SiphonError;
  }
  throw new Error("loadConfig accepted it");
};

test("config.json takes each setting's name or its environment name; the environment and flags win", () => {
  const home = homeWith({ port: 8080, SIPHON_SSRF_ALLOW: "10.0.0.5:80", cacheEnabled: false });
  const config = loadConfig({ SIPHON_HOME: home });
  expect(config).toMatchObject({ port: 8080, ssrfAllow: "10.0.0.5:80", cacheEnabled: false });
  expect(loadConfig({ SIPHON_HOME: home, PORT: "9000" }).port).toBe(9000);
  expect(loadConfig({ SIPHON_HOME: home }, { port: 7000 }).port).toBe(7000);
  expect(configSources({ SIPHON_HOME: home, PORT: "9000" }, { cacheEnabled: true })).toMatchObject({
    port: "environment",
    ssrfAllow: "config.json",
    cacheEnabled: "flag",
    host: "default",
    home: "environment",
  });
});

test("an unknown key is refused with the closest known one; so is a setting given twice, and a non-object", () => {
  const typo = refusal(homeWith({ SIPHON_SSRF_ALOW: "x" }));
  expect(typo).toBeInstanceOf(SiphonError);
  expect(typo.type).toBe("invalid_request");
  expect(typo.exitCode).toBe(2);
  expect(typo.message).toContain('unknown setting "SIPHON_SSRF_ALOW"; did you mean "SIPHON_SSRF_ALLOW"?');
  expect(refusal(homeWith({ prot: 1 })).message).toContain('did you mean "port"?');
  expect(refusal(homeWith({ port: 1, PORT: 2 })).message).toContain('"port" and "PORT" set the same setting');
  expect(refusal(homeWith([1, 2])).message).toContain("must hold a JSON object");
  expect(refusal(homeWith("{ not json")).message).toContain("is not valid JSON");
  expect(refusal(homeWith({ port: "eighty" })).message).toContain("port must be a non-negative integer");
});

test("the settings table names every setting once, with its environment name, and marks the secrets", () => {
  const table = settingsTable();
  expect(new Set(table.map((s) => s.env)).size).toBe(table.length);
  const secrets = table.filter((s) => s.secret).map((s) => s.env);
  expect(secrets).toEqual(
    expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "SIPHON_LLM_API_KEY", "SIPHON_ADMIN_KEY"]),
  );
  expect(table.every((s) => s.doc.length > 10)).toBe(true);
});
