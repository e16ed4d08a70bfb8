import { describe, expect, test } from "bun:test";
import { HostScheduler, hostKey } from "./hosts.ts";

const item = (url: string) => ({ url });

describe("HostScheduler", () => {
  test("hostKey keeps scheme, name and port, lower-cased", () => {
    expect(hostKey("https://Docs.Example.com:8443/a/b?c")).toBe("https://docs.example.com:8443");
    expect(hostKey("http://a.test")).toBe("http://a.test");
  });

  test("caps pages in flight per host and lets other hosts go ahead", () => {
    let now = 0;
    const hosts = new HostScheduler({ perHost: 2, delayMs: () => 0, now: () => now });
    const frontier = ["http://a.test/1", "http://a.test/2", "http://a.test/3", "http://b.test/1"].map(item);
    expect(hosts.take(frontier, 5).map((i) => i.url)).toEqual([
      "http://a.test/1",
      "http://a.test/2",
      "http://b.test/1",
    ]);
    expect(hosts.take([item("http://a.test/3")], 5)).toEqual([]);
    hosts.finished("http://a.test/1");
    now += 1;
    expect(hosts.take([item("http://a.test/3")], 5)).toEqual([item("http://a.test/3")]);
  });

  test("a host with a delay runs one page at a time, the delay after each page", () => {
    let now = 1_000;
    const hosts = new HostScheduler({
      perHost: 5,
      delayMs: (host) => (host === "http://slow.test" ? 2_000 : 0),
      now: () => now,
    });
    const frontier = [
      "http://slow.test/1",
      "http://slow.test/2",
      "http://fast.test/1",
      "http://fast.test/2",
    ].map(item);
    expect(hosts.take(frontier, 5).map((i) => i.url)).toEqual([
      "http://slow.test/1",
      "http://fast.test/1",
      "http://fast.test/2",
    ]);
    expect(hosts.waitMs([item("http://slow.test/2")])).toBeNull();
    hosts.finished("http://slow.test/1");
    expect(hosts.take([item("http://slow.test/2")], 5)).toEqual([]);
    expect(hosts.waitMs([item("http://slow.test/2")])).toBe(2_000);
    now += 1_999;
    expect(hosts.take([item("http://slow.test/2")], 5)).toEqual([]);
    now += 1;
    expect(hosts.take([item("http://slow.test/2")], 5)).toEqual([item("http://slow.test/2")]);
  });

  test("takes no more than asked", () => {
    const hosts = new HostScheduler({ perHost: 5, delayMs: () => 0, now: () => 0 });
    expect(hosts.take(["http://a.test/1", "http://b.test/1", "http://c.test/1"].map(item), 2)).toHaveLength(
      2,
    );
  });
});
