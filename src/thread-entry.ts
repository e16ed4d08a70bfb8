/**
 * Where a worker thread's code is, named by its path from the project root
 * (`path`): from source, that file beside the module that starts it (`from`:
 * its import.meta.url); in the compiled binary, the entrypoint
 * scripts/build.ts adds for it under the same path.
 */
export function threadEntry(from: string, path: string): string {
  if (from.includes("$bunfs")) return `./${path}`;
  return new URL(`./${path.slice(path.lastIndexOf("/") + 1)}`, from).href;
}

/** Bun's Worker can be unreferenced like a timer; the DOM typings do not say so. */
export type BunWorker = Worker & { ref(): void; unref(): void };
