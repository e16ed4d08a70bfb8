import { expect, test } from "bun:test";
import { decodeCfEmail } from "./cf-email.ts";
import { extractHtml } from "./index.ts";

/** Cloudflare's encoding: a key byte, then each UTF-8 byte of the address XORed with it. */
const encode = (address: string, key: number) =>
  [key, ...new TextEncoder().encode(address).map((b) => b ^ key)]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const extract = (body: string, format: "markdown" | "text" = "markdown") =>
  extractHtml(
    `<html><head><title>Contact</title></head><body><main><h1>Contact us</h1>${body}</main></body></html>`,
    "https://shop.example/contact",
    { format, onlyMainContent: true, images: false },
  ).content;

test("an address Cloudflare hid reads as the address, its link as mailto:, in markdown and text", () => {
  const body =
    `<p>Or email <a href="/cdn-cgi/l/email-protection#${encode("service@synrgys.com", 0x4c)}"><span class="__cf_email__" data-cfemail="${encode("Service@Synrgys.com", 0xdc)}">[email&#160;protected]</span></a> and we will answer.</p>` +
    `<p>Write to <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="${encode("josé@café.example", 0x21)}">[email&#160;protected]</a> today.</p>` +
    `<pre><code>user = User(email="<span class="__cf_email__" data-cfemail="${encode("sandy@sqlalchemy.org", 0x7a)}">[email&#160;protected]</span>")</code></pre>`;
  const md = extract(body);
  expect(md).toContain("Or email [Service@Synrgys.com](mailto:service@synrgys.com) and we will answer.");
  expect(md).toContain("Write to [josé@café.example](mailto:josé@café.example) today.");
  expect(md).toContain('user = User(email="sandy@sqlalchemy.org")');
  expect(md).not.toContain("email protected");
  expect(md).not.toContain("cdn-cgi");
  expect(extract(body, "text")).toContain("Or email Service@Synrgys.com and we will answer.");
});

test("a value that is not an encoded address is left as the page has it", () => {
  expect(decodeCfEmail(encode("a@b.example", 0x33))).toBe("a@b.example");
  expect(decodeCfEmail("4c")).toBeNull(); // a key and nothing
  expect(decodeCfEmail("4c3")).toBeNull(); // odd length
  expect(decodeCfEmail("zz3f29")).toBeNull(); // not hex
  expect(decodeCfEmail(encode("a\nb", 0x10))).toBeNull(); // a control character
  expect(decodeCfEmail("00ff")).toBeNull(); // not UTF-8
  const md = extract(
    '<p>Mail <span class="__cf_email__" data-cfemail="4c3">[email&#160;protected]</span> now.</p>',
  );
  expect(md).toMatch(/Mail \[email\sprotected\] now\./);
});
