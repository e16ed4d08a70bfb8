import { type Static, Type as T } from "@sinclair/typebox";
import { SiphonError } from "../../src/errors.ts";

/** Firecrawl's monitor schedules (cron or words) as a watch's interval in minutes, and back. */

const UNITS: Record<string, number> = { minute: 1, hour: 60, day: 1440, week: 10_080 };

export const notImplemented = (message: string, hint: string) =>
  new SiphonError("not_implemented", message, { hint });

export const Schedule = T.Object(
  {
    cron: T.Optional(
      T.String({
        maxLength: 100,
        description: "Five fields; fixed intervals only: */N minutes, hourly, every H hours, daily, weekly",
      }),
    ),
    text: T.Optional(
      T.String({
        maxLength: 100,
        description: 'Plain words: "every 30 minutes", "hourly", "every 2 hours", "daily", "weekly"',
      }),
    ),
    timezone: T.Optional(T.String({ maxLength: 64, description: "Accepted; an interval needs none" })),
  },
  { additionalProperties: false, description: "One of cron or text" },
);

/** The interval (minutes) of Firecrawl words: "every 30 minutes", "hourly", "every 2 hours", "daily"… */
function textMinutes(text: string): number {
  const words = text.trim().toLowerCase().replace(/\s+/g, " ");
  const single: Record<string, number> = { hourly: 60, daily: 1440, weekly: 10_080 };
  if (single[words]) return single[words];
  const every = /^every (?:(\d+) )?(minute|min|hour|hr|day|week)s?$/.exec(words);
  if (!every) {
    throw notImplemented(
      `schedule.text "${text}" is not an interval siphon can keep`,
      'Say how often, as "every 30 minutes", "hourly", "every 2 hours", "daily" or "weekly": ' +
        "siphon checks at a fixed interval from the last check, not at set times of day.",
    );
  }
  const unit = { min: "minute", hr: "hour" }[every[2] as string] ?? (every[2] as string);
  return Number(every[1] ?? 1) * (UNITS[unit] as number);
}

/** The interval (minutes) of a cron of fixed intervals; anything else is refused. */
function cronMinutes(cron: string): number {
  const parts = cron.trim().split(/\s+/);
  const [minute, hour, day, month, weekday] = parts;
  const fixed = (field: string | undefined, max: number) =>
    field !== undefined && /^\d+$/.test(field) && Number(field) <= max;
  const step = (field: string | undefined) => (field ? /^\*\/(\d+)$/.exec(field)?.[1] : undefined);
  if (parts.length === 5 && day === "*" && month === "*") {
    if (weekday === "*") {
      if (minute === "*" && hour === "*") return 1;
      if (step(minute) && hour === "*") return Number(step(minute));
      if (fixed(minute, 59) && hour === "*") return 60;
      if (fixed(minute, 59) && step(hour)) return Number(step(hour)) * 60;
      if (fixed(minute, 59) && fixed(hour, 23)) return 1440;
    } else if (fixed(minute, 59) && fixed(hour, 23) && fixed(weekday, 7)) return 10_080;
  }
  throw notImplemented(
    `schedule.cron "${cron}" is not a fixed interval`,
    "siphon checks at a fixed interval: use */N * * * * (minutes), 0 * * * * (hourly), 0 */H * * *, " +
      "0 0 * * * (daily) or 0 0 * * 0 (weekly); the minute and hour fields set no time of day.",
  );
}

/** A schedule's interval in minutes. Throws invalid_request (neither or both) or not_implemented. */
export function scheduleMinutes(schedule: Static<typeof Schedule>): number {
  if ((schedule.cron === undefined) === (schedule.text === undefined)) {
    throw new SiphonError("invalid_request", "schedule needs exactly one of cron or text");
  }
  return schedule.cron !== undefined ? cronMinutes(schedule.cron) : textMinutes(schedule.text as string);
}

/** An interval as Firecrawl reads a schedule back: words always, cron when one says it exactly. */
export function scheduleView(minutes: number): { cron?: string; text: string; timezone: string } {
  const unit =
    minutes % 10_080 === 0 ? "week" : minutes % 1440 === 0 ? "day" : minutes % 60 === 0 ? "hour" : "minute";
  const count = minutes / (UNITS[unit] as number);
  const text = count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;
  let cron: string | undefined;
  if (minutes === 1) cron = "* * * * *";
  else if (minutes < 60 && 60 % minutes === 0) cron = `*/${minutes} * * * *`;
  else if (minutes === 60) cron = "0 * * * *";
  else if (minutes < 1440 && minutes % 60 === 0 && 24 % (minutes / 60) === 0)
    cron = `0 */${minutes / 60} * * *`;
  else if (minutes === 1440) cron = "0 0 * * *";
  else if (minutes === 10_080) cron = "0 0 * * 0";
  return { ...(cron ? { cron } : {}), text, timezone: "UTC" };
}
