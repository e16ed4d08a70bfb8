import { describe, expect, test } from "bun:test";
import { xmlToContent } from "./xml.ts";

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>Tech &amp; Things</title>
    <link>https://news.example/</link>
    <description>Daily notes</description>
    <item>
      <title>First [draft] post</title>
      <link>/posts/1</link>
      <pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>
      <description><![CDATA[<p>Hello <b>world</b> &amp; friends</p><p>Second paragraph</p><script>track()</script>]]></description>
    </item>
    <item>
      <title>Second post</title>
      <guid>https://news.example/p/2</guid>
      <description>&lt;p&gt;Escaped &lt;em&gt;HTML&lt;/em&gt; summary&lt;/p&gt;</description>
    </item>
  </channel>
</rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Engineering Blog</title>
  <subtitle>How we build things</subtitle>
  <link rel="self" href="https://blog.example/atom.xml"/>
  <link href="https://blog.example/"/>
  <entry>
    <title>Moving to Bun</title>
    <link rel="alternate" href="/2024/bun"/>
    <updated>2024-02-02T00:00:00Z</updated>
    <summary type="html">&lt;p&gt;Startup got &lt;strong&gt;20x&lt;/strong&gt; faster.&lt;/p&gt;</summary>
  </entry>
</feed>`;

describe("RSS feeds", () => {
  test("markdown: feed title, description, then linked item headings with date and plain summary", () => {
    const { title, content, links } = xmlToContent(RSS, "markdown", "https://news.example/feed.xml");
    expect(title).toBe("Tech & Things");
    expect(content).toStartWith("# Tech & Things\n\nDaily notes\n\n");
    expect(content).toContain("## [First \\[draft\\] post](https://news.example/posts/1)");
    expect(content).toContain("*Mon, 01 Jan 2024 10:00:00 GMT*");
    expect(content).toContain("Hello world & friends\n\nSecond paragraph");
    expect(content).toContain("## [Second post](https://news.example/p/2)\n\nEscaped HTML summary");
    expect(content).not.toContain("<p>");
    expect(content).not.toContain("track()");
    expect(links).toEqual([
      "https://news.example/",
      "https://news.example/posts/1",
      "https://news.example/p/2",
    ]);
  });

  test("text: the same structure without markdown syntax", () => {
    const { content } = xmlToContent(RSS, "text", "https://news.example/feed.xml");
    expect(content).toStartWith(
      "Tech & Things\n\nDaily notes\n\nFirst [draft] post\nhttps://news.example/posts/1",
    );
    expect(content).not.toContain("#");
    expect(content).not.toContain("](");
  });

  test("html: semantic headings, links and escaped text", () => {
    const { content } = xmlToContent(RSS, "html", "https://news.example/feed.xml");
    expect(content).toStartWith("<h1>Tech &amp; Things</h1>");
    expect(content).toContain('<h2><a href="https://news.example/posts/1">First [draft] post</a></h2>');
    expect(content).toContain("<time>Mon, 01 Jan 2024 10:00:00 GMT</time>");
    expect(content).toContain("<p>Hello world &amp; friends</p><p>Second paragraph</p>");
  });
});

test("Atom feeds use the alternate link, resolve relative hrefs and strip summary HTML", () => {
  const { title, content, links } = xmlToContent(ATOM, "markdown", "https://blog.example/atom.xml");
  expect(title).toBe("Engineering Blog");
  expect(content).toBe(
    "# Engineering Blog\n\nHow we build things\n\n## [Moving to Bun](https://blog.example/2024/bun)\n\n" +
      "*2024-02-02T00:00:00Z*\n\nStartup got 20x faster.",
  );
  expect(links).toEqual(["https://blog.example/", "https://blog.example/2024/bun"]);
});

test("a sitemap becomes a list of its URLs", () => {
  const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc>https://s.example/a</loc><lastmod>2024-01-01</lastmod></url><url><loc>https://s.example/b</loc></url></urlset>`;
  const result = xmlToContent(xml, "markdown", "https://s.example/sitemap.xml");
  expect(result.title).toBe("Sitemap");
  expect(result.content).toBe(
    "# Sitemap\n\n- https://s.example/a (updated 2024-01-01)\n- https://s.example/b",
  );
  expect(result.links).toEqual(["https://s.example/a", "https://s.example/b"]);
});

test("a sitemap index lists the child sitemaps", () => {
  const xml = `<sitemapindex><sitemap><loc>https://s.example/s1.xml</loc></sitemap></sitemapindex>`;
  const result = xmlToContent(xml, "text", "https://s.example/index.xml");
  expect(result.content).toBe("Sitemap index\n\nhttps://s.example/s1.xml");
  expect(result.links).toEqual(["https://s.example/s1.xml"]);
});

test("other XML is shown verbatim in an xml code block", () => {
  const xml = '<?xml version="1.0"?>\n<config><title>App</title><port>8080</port></config>';
  expect(xmlToContent(xml, "markdown", "https://x.example/c.xml")).toEqual({
    title: "App",
    content: "```xml\n" + xml + "\n```",
    links: [],
  });
  expect(xmlToContent(xml, "html", "https://x.example/c.xml").content).toStartWith(
    '<pre><code class="language-xml">&lt;?xml',
  );
});

test("broken XML never throws", () => {
  expect(xmlToContent("<rss><channel><title>Half", "markdown", "https://x.example/").content).toBe("# Half");
  expect(xmlToContent("", "text", "https://x.example/").content).toBe("");
});

describe("XML nested 200,000 deep", () => {
  const SENTENCE = "The deepest sentence survives.";
  const N = 200_000;
  const feed = (description: string) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep feed</title><item><title>Deep item</title><link>https://x.example/deep</link><description>${description}</description></item></channel></rss>`;

  test("a feed item whose description nests elements 200,000 deep keeps its text", () => {
    const { content } = xmlToContent(
      feed(`${"<a>".repeat(N)}${SENTENCE}${"</a>".repeat(N)}`),
      "markdown",
      "https://x.example/",
    );
    expect(content).toBe(`# Deep feed\n\n## [Deep item](https://x.example/deep)\n\n${SENTENCE}`);
  });

  test("a description of escaped HTML nested 200,000 deep becomes its plain text", () => {
    const html = `${"&lt;div&gt;".repeat(N)}${SENTENCE}${"&lt;/div&gt;".repeat(N)}`;
    expect(xmlToContent(feed(html), "text", "https://x.example/").content).toEndWith(SENTENCE);
  });

  test("other XML nested 200,000 deep is shown as served", () => {
    const xml = `<?xml version="1.0"?><root><title>Deep</title>${"<a>".repeat(N)}${SENTENCE}${"</a>".repeat(N)}</root>`;
    expect(xmlToContent(xml, "text", "https://x.example/")).toEqual({
      title: "Deep",
      content: xml,
      links: [],
    });
  });
});
