import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { type FixtureSite, startFixtureSite } from "../helpers/fixture-site.ts";

/**
 * A crawl's pages ask for the languages the request names: scrapeOptions' location and
 * languages, unless the crawl's own top-level ones are given, which then win.
 */

let site: FixtureSite;
let app: TestApp;
beforeAll(async () => {
  site = await startFixtureSite();
  app = await startTestApp({ escalation: false, cacheEnabled: false });
});
afterAll(async () => {
  await app.close();
  await site.stop();
});

/** The Accept-Language the fixture site's /headers page saw when a one-page crawl of it ran with `body`. */
async function acceptLanguageOf(body: Record<string, unknown>): Promise<string> {
  const res = await app.request("/v1/crawl", {
    method: "POST",
    body: JSON.stringify({ url: `${site.url}/headers`, limit: 1, maxDepth: 0, ignoreSitemap: true, ...body }),
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  for (let i = 0; i < 300; i++) {
    const poll = (await (await app.request(`/v1/crawl/${id}`)).json()) as {
      status: string;
      data: { markdown?: string }[];
    };
    if (poll.status !== "queued" && poll.status !== "processing") {
      expect(poll.status).toBe("completed");
      // /headers answers the request's headers as JSON, which the page's markdown shows.
      const sent = /"accept-language": "([^"]*)"/.exec(poll.data[0]?.markdown ?? "");
      return sent?.[1] ?? "(none sent)";
    }
    await Bun.sleep(50);
  }
  throw new Error(`crawl ${id} did not end`);
}

describe("a crawl's languages", () => {
  test("scrapeOptions.languages reaches every page when the crawl names none of its own", async () => {
    expect(await acceptLanguageOf({ scrapeOptions: { languages: ["de-CH"] } })).toStartWith("de-CH");
  });

  test("scrapeOptions.location does too", async () => {
    expect(await acceptLanguageOf({ scrapeOptions: { location: "CH" } })).toStartWith("de-CH");
  });

  test("the crawl's own languages and location win when given", async () => {
    const options = { languages: ["de-CH"], location: "CH" };
    expect(await acceptLanguageOf({ languages: "fr", scrapeOptions: options })).toStartWith("fr");
    expect(await acceptLanguageOf({ location: "IT", scrapeOptions: { location: "CH" } })).toStartWith(
      "it-IT",
    );
    // Each field on its own: the crawl's location with scrapeOptions' languages.
    expect(await acceptLanguageOf({ location: "IT", scrapeOptions: options })).toBe(
      "de-CH,it;q=0.9,en;q=0.8",
    );
  });
});

describe("a crawl's own languages are checked at submit", () => {
  test("a language that is not a BCP 47 tag is a 400 before the job exists, as on a fetch", async () => {
    for (const languages of ["en\u0007", ["de-CH", "not a tag!"]]) {
      const res = await app.request("/v1/crawl", {
        method: "POST",
        body: JSON.stringify({ url: `${site.url}/headers`, limit: 1, languages }),
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe("invalid_request");
      expect(body.error.message).toContain("languages");
    }
    const jobs = (await (await app.request("/v1/jobs?type=crawl")).json()) as { jobs: { status: string }[] };
    expect(jobs.jobs.every((job) => job.status === "completed")).toBe(true);
  });
});
