import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../config.ts";
import { SiphonError } from "../../errors.ts";
import { findChromium, isHeadlessShell } from "./launch.ts";

let dir: string;
let full: string;
let shell: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "siphon-launch-test-"));
  full = join(dir, "chromium");
  shell = join(dir, "chromium-headless-shell");
  for (const path of [full, shell]) {
    writeFileSync(path, "#!/bin/sh\nexit 0\n");
    chmodSync(path, 0o755);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const configWith = (overrides: { chromiumPath?: string; chromiumShellPath?: string }) =>
  loadConfig({ SIPHON_HOME: "/nonexistent/siphon-test-home" }, overrides);

describe("findChromium", () => {
  test("SIPHON_CHROMIUM_SHELL_PATH serves plain renders; stealth keeps SIPHON_CHROMIUM_PATH", () => {
    const config = configWith({ chromiumPath: full, chromiumShellPath: shell });
    expect(findChromium(config, "browser")).toBe(shell);
    expect(findChromium(config, "stealth")).toBe(full);
  });

  test("SIPHON_CHROMIUM_PATH alone puts every render on that one browser", () => {
    const config = configWith({ chromiumPath: full });
    expect(findChromium(config, "browser")).toBe(full);
    expect(findChromium(config, "stealth")).toBe(full);
  });

  test("a setting that names no executable is browser_unavailable naming the setting", () => {
    const missing = join(dir, "nothing-here");
    const error = (() => {
      try {
        findChromium(configWith({ chromiumShellPath: missing }), "browser");
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SiphonError);
    expect((error as SiphonError).type).toBe("browser_unavailable");
    expect((error as SiphonError).message).toContain("SIPHON_CHROMIUM_SHELL_PATH");
    expect((error as SiphonError).message).toContain(missing);
    // The shell setting is not stealth's concern.
    expect(findChromium(configWith({ chromiumShellPath: missing, chromiumPath: full }), "stealth")).toBe(
      full,
    );
  });
});

test("the headless shell is told apart by its name, whatever folder it is in", () => {
  expect(isHeadlessShell("/usr/lib/chromium/chromium-headless-shell")).toBe(true);
  expect(isHeadlessShell("/opt/chrome-headless-shell-linux64/chrome-headless-shell")).toBe(true);
  expect(isHeadlessShell("/opt/chrome/headless_shell")).toBe(true);
  expect(isHeadlessShell("/usr/bin/chromium")).toBe(false);
  expect(isHeadlessShell("/opt/headless-shell-builds/chrome")).toBe(false);
});
