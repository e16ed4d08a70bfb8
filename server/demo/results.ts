import { crawlItem } from "../../src/jobs/page-result.ts";
import type { AnswerResponse } from "../../src/schemas/answer.ts";
import type { CrawlPoll } from "../../src/schemas/demo.ts";
import type { FetchResult } from "../../src/schemas/fetch.ts";
import type { SearchResponse } from "../../src/schemas/search.ts";
import { MILLSTONES, TIDE_MILLS, WATER_WHEELS } from "./pages.ts";

/** POST /v1/fetch {url: "https://example.com/articles/tide-mills"}. */
export const DEMO_FETCH: FetchResult = TIDE_MILLS;

/** GET /v1/search?q=how+do+tide+mills+work&count=5. */
export const DEMO_SEARCH: SearchResponse = {
  success: true,
  data: {
    web: [
      {
        title: TIDE_MILLS.title,
        url: TIDE_MILLS.url,
        snippet:
          "A tide mill stores the sea. At high tide, water flows through sluice gates into a mill pond…",
      },
      {
        title: "Eling Tide Mill – one of the last working tide mills",
        url: "https://example.org/mills/eling",
        snippet: "Visit a working tide mill on the edge of Southampton Water; milling days follow the tides.",
      },
      {
        title: WATER_WHEELS.title,
        url: WATER_WHEELS.url,
        snippet: "Undershot, breastshot and overshot wheels, and when each is used.",
      },
      {
        title: MILLSTONES.title,
        url: MILLSTONES.url,
        snippet: "A pair of millstones grinds grain between a fixed bed stone and a turning runner stone.",
      },
      {
        title: "Tide mills of the Atlantic coast – a survey",
        url: "https://example.net/surveys/atlantic-tide-mills",
        snippet:
          "Some 750 tide mills once worked between Portugal and the Netherlands; fewer than 30 survive.",
      },
    ],
  },
};

/** POST /v1/answer {question: "How does a tide mill work?"}. */
export const DEMO_ANSWER: AnswerResponse = {
  success: true,
  answer:
    "A tide mill stores sea water at high tide in a mill pond behind sluice gates, then releases it " +
    "once the tide has fallen, so that it turns the mill's wheel [1]. Because the fall of water is " +
    "only a metre or two, tide mills used undershot or low breastshot wheels [1][2], and they could " +
    "grind for about four to six hours, twice a day, at times that moved with the tides [1].",
  citations: [
    {
      title: TIDE_MILLS.title,
      url: TIDE_MILLS.url,
      snippet:
        "At high tide, water flows through sluice gates into a mill pond; as the tide turns, the gates close and hold it.",
    },
    {
      title: WATER_WHEELS.title,
      url: WATER_WHEELS.url,
      snippet: "Tide mills, with their small falls, used undershot and low breastshot wheels.",
    },
  ],
  searchProvider: "duckduckgo",
  llmProvider: "openai",
  llmModel: "gpt-6-luna",
  tokensUsed: { input: 1412, output: 96 },
};

/**
 * GET /v1/crawl/:id of a finished crawl of https://example.com/articles/tide-mills, limit 3;
 * expiresAt and lastProgressAt are set when it is served.
 */
export const DEMO_CRAWL: Omit<CrawlPoll, "expiresAt" | "lastProgressAt"> = {
  success: true,
  status: "completed",
  progress: 100,
  total: 3,
  completed: 3,
  failed: 0,
  creditsUsed: 3,
  data: [TIDE_MILLS, WATER_WHEELS, MILLSTONES].map(crawlItem),
};
