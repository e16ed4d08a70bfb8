import type { FetchResult } from "../../src/schemas/fetch.ts";

/**
 * The pages the demo results are made of: fetch results as POST /v1/fetch answers them
 * (markdown, main content), written once by hand. Their URLs are on example.com and
 * example.org, names reserved for documentation, and are never fetched.
 */

const TIDE_MILLS_MARKDOWN = `# How tide mills work

A tide mill stores the sea. At high tide, water flows through sluice gates into a mill pond; as the tide turns, the gates close and hold it. Once the sea outside has fallen far enough, the miller lets the pond drain through a channel under the mill, where it turns the wheel.

## The wheel

The fall of water is small, a metre or two, so tide mills used undershot or low breastshot wheels. Each tide gave about four to six hours of grinding, twice a day, at hours that moved with the moon.

## Where they survive

Working tide mills survive at [Eling](https://example.org/mills/eling), Woodbridge and Fowlmere. Most were abandoned when steam and then electric mills made the tide's timetable too costly to keep.

> "The tide does not wait for the miller, so the miller waits for the tide."

See also: [water wheels](https://example.com/articles/water-wheels) and [millstones](https://example.com/articles/millstones).
`;

const WATER_WHEELS_MARKDOWN = `# Water wheels

A water wheel turns the weight or the push of moving water into rotation. Three kinds cover most mills:

- **Undershot**: water pushes the paddles at the bottom; simple, for small falls.
- **Breastshot**: water meets the wheel near axle height; the usual choice for a fall of one to three metres.
- **Overshot**: water fills buckets at the top; the most efficient, but it needs a fall larger than the wheel.

Tide mills, with their small falls, used undershot and low breastshot wheels.
`;

const MILLSTONES_MARKDOWN = `# Millstones

A pair of millstones grinds grain between a fixed bed stone and a turning runner stone. Furrows cut into the faces carry the meal outwards and let air cool it.

Millers prized French burr stone, quarried near Paris, because its hard, porous quartz kept a sharp face for longer. Dressing the stones, re-cutting the furrows by hand, took a day every few weeks.
`;

const metadata = (description: string, published: string | null): FetchResult["metadata"] => ({
  description,
  author: "Mill Heritage Trust",
  published,
  image: null,
  canonical: null,
});

/** The article POST /v1/demo {kind: "fetch"} answers with. */
export const TIDE_MILLS: FetchResult = {
  url: "https://example.com/articles/tide-mills",
  title: "How tide mills work",
  content: TIDE_MILLS_MARKDOWN,
  metadata: metadata("How a tide mill stores the sea and grinds with the ebb.", "2024-05-03T08:00:00.000Z"),
  links: [
    "https://example.org/mills/eling",
    "https://example.com/articles/water-wheels",
    "https://example.com/articles/millstones",
  ],
  tokens: 236,
  method: "simple",
  elapsed: 184,
  contentType: "html",
  quality: 0.86,
  fingerprint: "4d2d7e426a8b9754",
  statusCode: 200,
};

export const WATER_WHEELS: FetchResult = {
  url: "https://example.com/articles/water-wheels",
  title: "Water wheels",
  content: WATER_WHEELS_MARKDOWN,
  metadata: metadata("Undershot, breastshot and overshot wheels, and when each is used.", null),
  links: [],
  tokens: 126,
  method: "simple",
  elapsed: 97,
  contentType: "html",
  quality: 0.78,
  fingerprint: "5a129a0a96086632",
  statusCode: 200,
};

export const MILLSTONES: FetchResult = {
  url: "https://example.com/articles/millstones",
  title: "Millstones",
  content: MILLSTONES_MARKDOWN,
  metadata: metadata("Bed stones, runner stones, furrows and French burr.", "2023-11-20T00:00:00.000Z"),
  links: [],
  tokens: 94,
  method: "simple",
  elapsed: 88,
  contentType: "html",
  quality: 0.74,
  fingerprint: "c593117a030457ef",
  statusCode: 200,
};
