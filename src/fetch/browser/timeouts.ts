/** Settles as `promise` does, or rejects once `ms` have passed ("<what> took more than <ms> ms"). */
export function settledWithin<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Waits for `promise` to settle, at most `ms`; never throws. */
export function withTimeout(promise: Promise<unknown>, ms: number): Promise<void> {
  return settledWithin(promise, ms, "").then(
    () => {},
    () => {},
  );
}
