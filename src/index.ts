/** siphon's core: plain async functions the CLI and the server share. */
export { type Config, loadConfig } from "./config.ts";
export { ERROR_TABLE, type ErrorType, SiphonError, toSiphonError } from "./errors.ts";
export { createEngines } from "./pipeline/engines.ts";
export { type FetchDeps, type FetchOutcome, fetchPage } from "./pipeline/fetch-page.ts";
export { fingerprint } from "./pipeline/result.ts";
export { FetchBody, type FetchInput, type FetchResult } from "./schemas/fetch.ts";
export { openStore, type Store } from "./store/index.ts";
