/**
 * Server-sent events (SPEC Events): every event is one `data: <json>` line and a blank line.
 * The stream ends when the events end; a client that goes away cancels it, which closes the
 * iterator (and, through it, whatever upstream call feeds it).
 */
export function sseResponse(events: AsyncIterable<unknown>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  const iterator = events[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      ...headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    },
  });
}
