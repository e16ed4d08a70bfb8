import { describe, expect, test } from "bun:test";
import { ProtocolError } from "puppeteer-core";
import { SiphonError } from "../../errors.ts";
import { navigationError } from "./navigation-error.ts";

const url = new URL("https://example.com/page");
const typeOf = (error: unknown) => (error instanceof SiphonError ? error.type : "not mapped");

describe("navigationError", () => {
  test("a command the browser never answered is browser_unavailable, not a 500", () => {
    // What puppeteer throws at protocolTimeout when a dead renderer leaves a command unanswered.
    const unanswered = new ProtocolError(
      "Network.enable timed out. Increase the 'protocolTimeout' setting in launch/connect calls for a higher timeout if needed.",
    );
    const mapped = navigationError(unanswered, url, undefined);
    expect(typeOf(mapped)).toBe("browser_unavailable");
    expect((mapped as SiphonError).message).toContain("stopped answering");
  });

  test("a page, renderer or browser that went away under a call is browser_unavailable", () => {
    const gone = [
      Object.assign(new Error("Protocol error (Page.navigate): Target closed"), { name: "TargetCloseError" }),
      new ProtocolError("Protocol error (Runtime.callFunctionOn): Cannot find context with specified id"),
      new Error("Execution context was destroyed, most likely because of a navigation."),
      new Error("Navigating frame was detached"),
      new Error("Page crashed!"),
      new Error("Missing target for page (id = 1234)"),
    ];
    expect(gone.map((error) => typeOf(navigationError(error, url, undefined)))).toEqual(
      gone.map(() => "browser_unavailable"),
    );
  });

  test("a fault of ours is not passed off as the browser's", () => {
    const bug = new TypeError("undefined is not an object");
    expect(navigationError(bug, url, undefined)).toBe(bug);
  });
});
