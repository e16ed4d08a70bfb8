import { loadPlans } from "../auth/plans.ts";
import type { Config } from "../config.ts";
import type { Engines } from "../pipeline/engines.ts";
import type { Store } from "../store/types.ts";
import { createJobRunner, type JobRunner, type RunnerDeps } from "./runner.ts";
import { createWebhookSender } from "./webhooks.ts";

/** What a server process's job runner runs with: the config's plans and a webhook sender. */
export function serverRunnerDeps(
  config: Config,
  store: Store,
  engines: Engines,
  options: { now?: () => number; log?: (message: string) => void } = {},
): RunnerDeps {
  return {
    config,
    store,
    engines,
    plans: loadPlans(config),
    webhooks: createWebhookSender(config, { log: options.log, now: options.now }),
    now: options.now,
    log: options.log,
  };
}

/** A job runner with its webhook sender, for a server process. */
export function startJobRunner(
  config: Config,
  store: Store,
  engines: Engines,
  options: { now?: () => number; log?: (message: string) => void } = {},
): JobRunner {
  return createJobRunner(serverRunnerDeps(config, store, engines, options));
}
