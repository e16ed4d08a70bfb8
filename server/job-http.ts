/**
 * What every HTTP surface's job routes share (native, Firecrawl, the dashboard): the caller's
 * job found from the request, the poll's paging query and the link to the next page.
 */
import { findJob } from "../src/jobs/read.ts";
import { queryNumber } from "../src/schemas/common.ts";
import { PollQuery } from "../src/schemas/jobs.ts";
import { validate } from "../src/schemas/validate.ts";
import type { JobRecord, JobType } from "../src/store/types.ts";
import { type Guard, identify } from "./guard.ts";

/**
 * A job of one of `types` the request's caller owns and that has not expired; anything else is
 * 404 not_found (src/jobs/read.ts findJob). Throws the authentication errors of `identify` too.
 */
export async function callerJob(
  guard: Guard,
  request: Request,
  id: string,
  types: JobType | readonly JobType[],
): Promise<JobRecord> {
  const principal = await identify(guard, request);
  return findJob(guard.store, { accountId: principal.account.id, now: guard.now() }, id, types);
}

/** A poll's `?skip=&limit=`, checked. */
export function pollPaging(query: Record<string, unknown>): { skip: number; limit: number } {
  return validate(PollQuery, {
    skip: queryNumber(query.skip as string | undefined),
    limit: queryNumber(query.limit as string | undefined),
  });
}

/** The poll URL of the page of results from `skip`, built from the request's own origin. */
export function nextLink(request: Request, skip: number, limit: number): string {
  const self = new URL(request.url);
  return `${self.origin}${self.pathname}?skip=${skip}&limit=${limit}`;
}
