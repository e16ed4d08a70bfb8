import { WATCH_HISTORY_KEPT } from "../../src/schemas/watch.ts";
import type { WatchCheckRecord, WatchRecord } from "../../src/store/types.ts";
import { type WatchHook, type WatchNotifier, watchOptions } from "../../src/watch/index.ts";
import { scheduleView } from "./monitor-schedule.ts";

/** Firecrawl's answers about monitors: siphon's watches and checks as monitors, checks and pages. */

/** The one target of a monitor: a scrape of the watch's page. */
const TARGET_ID = "scrape-0";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A check's one page as Firecrawl counts pages. */
function pageStatus(check: WatchCheckRecord): "same" | "new" | "changed" | "removed" | "error" {
  if (check.status === "baseline") return "new";
  if (check.status === "error")
    return check.statusCode === 404 || check.statusCode === 410 ? "removed" : "error";
  return check.status;
}

function summaryOf(check: WatchCheckRecord) {
  const status = pageStatus(check);
  const count = (s: string) => (status === s ? 1 : 0);
  return {
    totalPages: 1,
    same: count("same"),
    changed: count("changed"),
    new: count("new"),
    removed: count("removed"),
    error: count("error"),
  };
}

export function monitorView(watch: WatchRecord, last: WatchCheckRecord | undefined) {
  const options = watchOptions(watch.options);
  const hook = watch.webhook as WatchHook | null;
  const scrapeOptions: Record<string, unknown> = {
    formats: ["markdown"],
    onlyMainContent: options.onlyMainContent,
  };
  if (options.includeTags.length) scrapeOptions.includeTags = options.includeTags;
  if (options.excludeTags.length) scrapeOptions.excludeTags = options.excludeTags;
  return {
    id: watch.id,
    name: watch.name ?? `Monitor ${watch.url}`,
    status: watch.status === "paused" ? "paused" : "active",
    schedule: scheduleView(watch.intervalMinutes),
    nextRunAt: watch.status === "paused" ? null : iso(watch.nextCheckAt),
    lastRunAt: iso(watch.lastCheckedAt),
    currentCheckId: null,
    targets: [{ id: TARGET_ID, type: "scrape", urls: [watch.url], scrapeOptions }],
    webhook: hook
      ? {
          url: hook.url,
          ...(hook.headers ? { headers: hook.headers } : {}),
          ...(hook.metadata ? { metadata: hook.metadata } : {}),
          events: (hook.events ?? ["page", "completed"]).map((e) =>
            e === "page" ? "monitor.page" : "monitor.check.completed",
          ),
        }
      : null,
    notification: null,
    // The newest checks kept, as the days they span at this interval.
    retentionDays: Math.max(1, Math.ceil((WATCH_HISTORY_KEPT * watch.intervalMinutes) / 1440)),
    estimatedCreditsPerMonth: Math.ceil((30 * 1440) / watch.intervalMinutes),
    lastCheckSummary: last ? summaryOf(last) : null,
    goal: null,
    judgeEnabled: false,
    createdAt: iso(watch.createdAt),
    updatedAt: iso(watch.updatedAt),
  };
}

export function checkView(watch: WatchRecord, check: WatchCheckRecord) {
  const at = iso(check.checkedAt);
  const read = check.status !== "error";
  return {
    id: check.id,
    monitorId: watch.id,
    status: read ? "completed" : "failed",
    trigger: check.trigger,
    scheduledFor: null,
    startedAt: at,
    finishedAt: at,
    estimatedCredits: 1,
    reservedCredits: null,
    actualCredits: read ? 1 : 0,
    billingStatus: read ? "confirmed" : "not_applicable",
    summary: summaryOf(check),
    targetResults: [{ targetId: TARGET_ID, type: "scrape" }],
    notificationStatus: null,
    error: check.error,
    createdAt: at,
    updatedAt: at,
  };
}

export function pageView(watch: WatchRecord, check: WatchCheckRecord) {
  return {
    id: `${check.id}:0`,
    targetId: TARGET_ID,
    url: watch.url,
    status: pageStatus(check),
    previousScrapeId: null,
    currentScrapeId: null,
    statusCode: check.statusCode,
    error: check.error,
    metadata: {
      fingerprint: check.fingerprint,
      previousFingerprint: check.previousFingerprint,
      summary: check.summary,
    },
    diff: check.diff ? { text: check.diff } : null,
    snapshot: null,
    judgment: null,
    createdAt: iso(check.checkedAt),
  };
}

/** monitor.page after every check, then monitor.check.completed. */
export const firecrawlMonitorEvents: WatchNotifier = (watch, check) => {
  const success = check.status !== "error";
  const page = { monitorId: watch.id, checkId: check.id, ...pageView(watch, check) };
  const completed = {
    monitorId: watch.id,
    checkId: check.id,
    status: "completed",
    summary: summaryOf(check),
  };
  return [
    { event: "page", data: { checkId: check.id, success, items: [page] } },
    { event: "completed", data: { checkId: check.id, success, items: [completed] } },
  ];
};
