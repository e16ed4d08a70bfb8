import type { WebhookConfig } from "../jobs/webhooks.ts";
import type { WatchCheckViewShape, WatchViewShape } from "../schemas/watch.ts";
import type { WatchCheckRecord, WatchRecord } from "../store/types.ts";
import { watchOptions } from "./options.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A watch as the API and the CLI show it: options spelled out, times in ISO 8601, never the webhook's secret. */
export function watchView(watch: WatchRecord): WatchViewShape {
  const options = watchOptions(watch.options);
  const hook = watch.webhook as WebhookConfig | null;
  return {
    id: watch.id,
    url: watch.url,
    name: watch.name,
    status: watch.status,
    checkIntervalMinutes: watch.intervalMinutes,
    format: options.format,
    onlyMainContent: options.onlyMainContent,
    includeTags: options.includeTags,
    excludeTags: options.excludeTags,
    render: options.render,
    ignore: options.ignore,
    webhook: hook
      ? {
          url: hook.url,
          events: hook.events ?? ["changed"],
          signed: Boolean(hook.secret),
          ...(hook.metadata ? { metadata: hook.metadata } : {}),
        }
      : null,
    lastFingerprint: watch.lastFingerprint,
    lastCheckedAt: iso(watch.lastCheckedAt),
    lastChangedAt: iso(watch.lastChangedAt),
    lastError: watch.lastError,
    changeCount: watch.changeCount,
    checkCount: watch.checkCount,
    nextCheckAt: watch.status === "paused" ? null : iso(watch.nextCheckAt),
    createdAt: iso(watch.createdAt) as string,
    updatedAt: iso(watch.updatedAt) as string,
  };
}

/** A check as the API and the CLI show it. */
export function checkView(check: WatchCheckRecord): WatchCheckViewShape {
  return {
    id: check.id,
    watchId: check.watchId,
    checkedAt: iso(check.checkedAt) as string,
    trigger: check.trigger,
    status: check.status,
    changed: check.status === "changed",
    previousFingerprint: check.previousFingerprint,
    currentFingerprint: check.fingerprint,
    summary: check.summary,
    addedText: check.addedText,
    removedText: check.removedText,
    diff: check.diff,
    statusCode: check.statusCode,
    error: check.error,
  };
}
