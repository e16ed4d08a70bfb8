import type { PageSnapshot, SnapshotStore } from "../store/types.ts";
import { diffMarkdown, type MarkdownDiff } from "./diff.ts";

export { type DiffChange, type DiffChunk, diffMarkdown, type MarkdownDiff } from "./diff.ts";

/** How a page compares with its previous scrape. */
export type ChangeStatus = "new" | "same" | "changed" | "removed";

/** Firecrawl's changeTracking object of a scraped document. */
export interface ChangeReport {
  /** When the previous scrape was made (ISO 8601), null when there was none. */
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  /** Whether the page is reachable by links (always "visible" for a scrape of one URL). */
  visibility: "visible" | "hidden";
  /** The git-style diff, when asked for and the page changed. */
  diff?: MarkdownDiff;
}

/** How many scrapes of one page (per account and tag) are kept for comparison. */
export const SNAPSHOTS_KEPT = 10;

/** Statuses that mean the page is gone. */
const GONE = new Set([404, 410]);

/** Text as compared: whitespace runs are one space, so re-wrapped lines are not a change. */
const normalized = (markdown: string) => markdown.replace(/\s+/g, " ").trim();

/**
 * Compares a page as scraped now with its previous snapshot: removed when the page answers
 * 404 or 410, new when there is no previous scrape, same when the markdown is equal up to
 * whitespace, changed otherwise (with the git-style diff when `gitDiff` is asked for).
 */
export function compareSnapshots(
  previous: Pick<PageSnapshot, "markdown" | "scrapedAt"> | null,
  current: Pick<PageSnapshot, "markdown" | "statusCode">,
  options: { gitDiff: boolean },
): ChangeReport {
  const previousScrapeAt = previous ? new Date(previous.scrapedAt).toISOString() : null;
  let changeStatus: ChangeStatus;
  if (GONE.has(current.statusCode)) changeStatus = "removed";
  else if (!previous) changeStatus = "new";
  else changeStatus = normalized(previous.markdown) === normalized(current.markdown) ? "same" : "changed";
  const report: ChangeReport = { previousScrapeAt, changeStatus, visibility: "visible" };
  if (options.gitDiff && changeStatus === "changed" && previous) {
    const diff = diffMarkdown(previous.markdown, current.markdown);
    if (diff) report.diff = diff;
  }
  return report;
}

/**
 * Change tracking of one scrape: reads the page's previous snapshot (same account, URL and
 * tag), compares, and records this scrape as the next one's previous (keeping the newest
 * SNAPSHOTS_KEPT) unless `record` is false.
 */
export async function trackChanges(
  store: SnapshotStore,
  current: PageSnapshot,
  options: { gitDiff: boolean; record?: boolean },
): Promise<ChangeReport> {
  const previous = await store.latest(current.accountId, current.url, current.tag);
  const report = compareSnapshots(previous, current, options);
  if (options.record !== false) await store.record(current, SNAPSHOTS_KEPT);
  return report;
}
