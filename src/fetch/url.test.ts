import { describe, expect, test } from "bun:test";
import { SiphonError } from "../errors.ts";
import { parseTargetUrl, resolveRedirectUrl } from "./url.ts";

function errorOf(fn: () => unknown): SiphonError {
  try {
    fn();
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected a SiphonError");
}

describe("parseTargetUrl", () => {
  test("accepts ordinary http and https URLs and returns them parsed", () => {
    expect(parseTargetUrl("https://example.com/a?b=c").href).toBe("https://example.com/a?b=c");
    expect(parseTargetUrl("HTTP://Example.COM:8080/x").href).toBe("http://example.com:8080/x");
    expect(parseTargetUrl("https://de.wikipedia.org/wiki/Köln").pathname).toBe("/wiki/K%C3%B6ln");
    expect(parseTargetUrl("https://user:pw@example.com/").username).toBe("user");
  });

  test("accepts exactly 2048 characters and refuses 2049", () => {
    const base = "https://example.com/";
    const ok = base + "a".repeat(2048 - base.length);
    expect(parseTargetUrl(ok).href.length).toBe(2048);
    const error = errorOf(() => parseTargetUrl(`${ok}a`));
    expect(error.type).toBe("invalid_url");
    expect(error.message).toContain("2048");
  });

  test.each([undefined, null, "", "   "])("missing url %p is invalid_request", (raw) => {
    const error = errorOf(() => parseTargetUrl(raw as string));
    expect(error.type).toBe("invalid_request");
    expect(error.status).toBe(400);
    expect(error.message).toContain("required");
  });

  test.each([
    ["example.com", "no scheme"],
    ["//example.com/", "no scheme"],
    ["/relative/path", "no scheme"],
    ["localhost:3000/x", "no scheme"],
    ["example.com:8080", "no scheme"],
    [" https://example.com/", "whitespace"],
    ["https://example.com/\n", "whitespace"],
    ["http:example.com", "must start with http:// or https://"],
    ["http:/example.com", "must start with http:// or https://"],
    ["http://", "could not be parsed"],
    ["http://exa mple.com/", "a space"],
    ["http://example.com/a b", "a space"],
    ["http://127.0.0.1\t/", "control character"],
    ["http://example.com/\u0000", "control character"],
    ["http://example.com/a\u00a0b", "control character"],
    ["http:\\\\example.com\\", "backslash"],
    ['http://example.com/"x"', '"""'],
    ["http://example.com/<script>", '"<"'],
    ["https://example.com/page#section", "# fragment"],
    ["https://example.com/#", "# fragment"],
    ["http://[::1/", "could not be parsed"],
    ["http://1.2.3.4.5/", "could not be parsed"],
    ["http://example.com:99999/", "could not be parsed"],
  ])("%p is invalid_url (%s)", (raw, fragment) => {
    const error = errorOf(() => parseTargetUrl(raw));
    expect(error.type).toBe("invalid_url");
    expect(error.status).toBe(400);
    expect(error.message).toContain(fragment);
    expect(error.hint).toBeTruthy();
  });

  test.each([
    "file:///etc/passwd",
    "ftp://example.com/file",
    "javascript:alert(1)",
    "data:text/html,<b>x</b>",
    "gopher://127.0.0.1:70/_x",
    "ws://example.com/",
    "FILE:///etc/hosts",
    "javascript:alert('<x>')",
  ])("%p is forbidden_url (non-HTTP scheme)", (raw) => {
    const error = errorOf(() => parseTargetUrl(raw));
    expect(error.type).toBe("forbidden_url");
    expect(error.status).toBe(403);
    expect(error.message).toContain("only http:// and https://");
  });
});

describe("resolveRedirectUrl", () => {
  const base = new URL("https://example.com/dir/page?x=1");

  test("resolves relative and absolute locations against the current URL", () => {
    expect(resolveRedirectUrl("other", base).href).toBe("https://example.com/dir/other");
    expect(resolveRedirectUrl("/root", base).href).toBe("https://example.com/root");
    expect(resolveRedirectUrl("//cdn.example.net/a", base).href).toBe("https://cdn.example.net/a");
    expect(resolveRedirectUrl("http://other.test/b", base).href).toBe("http://other.test/b");
  });

  test("drops the fragment of a Location instead of failing", () => {
    expect(resolveRedirectUrl("/a#top", base).href).toBe("https://example.com/a");
  });

  test("refuses a redirect to a non-HTTP scheme as forbidden_url", () => {
    expect(errorOf(() => resolveRedirectUrl("file:///etc/passwd", base)).type).toBe("forbidden_url");
  });

  test("an unparseable Location is a network_error naming the page", () => {
    const error = errorOf(() => resolveRedirectUrl("http://[bad", base));
    expect(error.type).toBe("network_error");
    expect(error.message).toContain("https://example.com/dir/page?x=1");
  });
});
