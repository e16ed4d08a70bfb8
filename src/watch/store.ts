import { SiphonError } from "../errors.ts";
import type { Store, WatchStore } from "../store/types.ts";

/** The store's watches; throws SiphonError not_implemented on a backend that keeps none yet. */
export function watchStoreOf(store: Store): WatchStore {
  if (!store.watches) {
    throw new SiphonError("not_implemented", "This server's store keeps no watches yet", {
      hint: "Watches need the SQLite store (unset DATABASE_URL) until the PostgreSQL one has them.",
    });
  }
  return store.watches;
}
