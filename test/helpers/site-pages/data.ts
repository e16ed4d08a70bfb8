/**
 * Non-HTML resources of the fixture site: JSON, RSS, Atom, sitemap,
 * robots.txt and plain text. Feeds and sitemap point at real fixture routes
 * so crawl and map tests can follow them.
 */

/** The object /data.json serves. */
export const DATA_JSON = {
  title: "Fixture API status",
  version: 3,
  services: [
    { name: "search", status: "operational", latencyMs: 41 },
    { name: "billing", status: "degraded", latencyMs: 870 },
  ],
  note: 'Quotes " and <angle brackets> must survive rendering',
};

export const FEED_TITLE = "The Fixture Times – Latest";
export const FEED_DESCRIPTION = "Local news, recipes and guides from a town that does not exist.";
/** The RSS items: title, site path, and a phrase of the description that must appear as plain text. */
export const FEED_ITEMS = [
  {
    title: "Council approves Riverside solar farm",
    path: "/article",
    summary: "Councillors voted 7-2 after nine hours of debate.",
  },
  { title: "Is your sourdough starter dead?", path: "/forum", summary: "Probably not: it is just hungry." },
  { title: "Configuring the HTTP client", path: "/docs", summary: "Retries, timeouts & headers explained." },
] as const;

export const ATOM_TITLE = "Fixture Engineering Blog";
/** The Atom entries; the second uses a relative link that must be resolved against the feed URL. */
export const ATOM_ENTRIES = [
  {
    title: "Why we moved to Bun",
    href: "/blog/moving-to-bun",
    summary: "Startup time dropped from 900 ms to 40 ms.",
  },
  {
    title: "Testing without the internet",
    href: "blog/offline-tests",
    summary: "Every test talks to 127.0.0.1.",
  },
] as const;

/** Paths the sitemap lists (absolute URLs in the XML). */
export const SITEMAP_PATHS = [
  "/",
  "/article",
  "/docs",
  "/forum",
  "/product",
  "/listing",
  "/service",
] as const;

/** The path prefix robots.txt disallows for every user agent. */
export const ROBOTS_DISALLOWED_PATH = "/private/";

export const PLAIN_TEXT = `Release notes 2.4.0
===================

* Faster startup: the CLI now loads commands lazily.
* Fixed: redirects with relative Location headers.

Thanks to everyone who reported bugs.
`;

/** RSS 2.0 with CDATA and entity-escaped HTML descriptions. */
export function rssFeed(origin: string): string {
  const items = FEED_ITEMS.map(
    (item, i) => `    <item>
      <title>${item.title}</title>
      <link>${origin}${item.path}</link>
      <guid isPermaLink="false">fixture-${i + 1}</guid>
      <pubDate>${["Thu, 14 Mar 2024 09:30:00 GMT", "Wed, 01 May 2024 08:12:00 GMT", "Mon, 06 May 2024 12:00:00 GMT"][i]}</pubDate>
      <dc:creator>Fixture Staff</dc:creator>
      ${
        i % 2 === 0
          ? `<description><![CDATA[<p>${item.summary.replace("&", "&amp;")}</p><p><a href="${item.path}">Read more</a></p>]]></description>`
          : `<description>&lt;p&gt;&lt;strong&gt;${item.summary}&lt;/strong&gt;&lt;/p&gt;</description>`
      }
    </item>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${FEED_TITLE}</title>
    <link>${origin}/</link>
    <description>${FEED_DESCRIPTION}</description>
    <atom:link href="${origin}/feed.xml" rel="self" type="application/rss+xml"/>
    <language>en</language>
${items}
  </channel>
</rss>
`;
}

/** Atom 1.0 with an HTML summary and a relative entry link. */
export function atomFeed(origin: string): string {
  const entries = ATOM_ENTRIES.map(
    (entry, i) => `  <entry>
    <title>${entry.title}</title>
    <link rel="alternate" type="text/html" href="${entry.href}"/>
    <id>tag:fixture.test,2024:blog-${i + 1}</id>
    <published>2024-0${i + 4}-10T10:00:00Z</published>
    <updated>2024-0${i + 4}-11T10:00:00Z</updated>
    <author><name>Fixture Engineer ${i + 1}</name></author>
    <summary type="html">&lt;p&gt;${entry.summary}&lt;/p&gt;</summary>
  </entry>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${ATOM_TITLE}</title>
  <subtitle>Notes from the people who build the fixture site.</subtitle>
  <link href="${origin}/blog/"/>
  <link rel="self" href="${origin}/atom.xml"/>
  <id>tag:fixture.test,2024:blog</id>
  <updated>2024-05-11T10:00:00Z</updated>
${entries}
</feed>
`;
}

/** A sitemap listing the fixture content pages. */
export function sitemap(origin: string): string {
  const urls = SITEMAP_PATHS.map(
    (path) =>
      `  <url><loc>${origin}${path}</loc><lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq></url>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls}
</urlset>
`;
}

/** robots.txt: private area closed to all, the whole site closed to one named bot, sitemap announced. */
export function robotsTxt(origin: string): string {
  return `# Fixture site robots rules
User-agent: *
Disallow: ${ROBOTS_DISALLOWED_PATH}
Allow: ${ROBOTS_DISALLOWED_PATH}allowed-page

User-agent: BadBot
Disallow: /

Sitemap: ${origin}/sitemap.xml
`;
}
