export { type CheckRun, runCheck } from "./check.ts";
export { type Comparison, compareContent } from "./compare.ts";
export { compileNoiseRules, compilePattern, filterNoise, type NoiseRules } from "./noise.ts";
export { type WatchOptions, watchOptions } from "./options.ts";
export { dueFrom, nextCheckAt } from "./schedule.ts";
export { createWatchScheduler, DEFAULT_TICK_MS, type WatchScheduler } from "./scheduler.ts";
export {
  type CheckNowOptions,
  CLAIM_LEASE_MS,
  createWatchService,
  type SurfaceOptions,
  type WatchDeps,
  type WatchHook,
  type WatchNotifier,
  type WatchService,
} from "./service.ts";
export { checkView, watchView } from "./view.ts";
