import { SiphonError } from "../../src/errors.ts";

/** Awaits a promise that must fail with a SiphonError and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<SiphonError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SiphonError) return error;
    throw error;
  }
  throw new Error("expected the promise to reject with a SiphonError");
}
