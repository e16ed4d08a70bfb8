/**
 * Events pushed by a callback, read as an async iterable (for an SSE response): `push` adds one,
 * `end` finishes the stream, `fail` ends it with an error the reader throws. Events wait in
 * memory until read; `first` settles with the first event, or rejects when the producer fails
 * before producing one, so a route can still answer an early failure with a plain HTTP error.
 */
export class EventQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #done = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  #first: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  readonly first: Promise<void>;

  constructor() {
    this.first = new Promise((resolve, reject) => {
      this.#first = { resolve, reject };
    });
    this.first.catch(() => {});
  }

  push(item: T): void {
    if (this.#done) return;
    this.#items.push(item);
    this.#first?.resolve();
    this.#wake?.();
  }

  end(): void {
    this.#done = true;
    this.#first?.resolve();
    this.#wake?.();
  }

  fail(error: unknown): void {
    if (this.#done) return;
    this.#error = error;
    this.#done = true;
    this.#first?.reject(error);
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    while (true) {
      const item = this.#items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.#done) {
        if (this.#error !== undefined) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}
