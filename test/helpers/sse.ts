// A GraphQL subscription over Server-Sent Events with nothing but fetch: POST /graphql with
// `Accept: text/event-stream`, then the frames (`event: next` / `event: complete`) as they arrive.

interface SseFrame {
  event: string;
  data: any;
}

export interface SseSubscription {
  status: number;
  contentType: string | null;
  /** The next `next` or `complete` frame; rejects when none arrives within `timeoutMs` (a guard against hanging, not a timing check). */
  next(timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

export async function subscribeOverSse(baseUrl: string, token: string, query: string, variables: Record<string, unknown>): Promise<SseSubscription> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  const frames: SseFrame[] = [];
  const waiting: ((frame: SseFrame | Error) => void)[] = [];
  const deliver = (frame: SseFrame | Error) => {
    const waiter = waiting.shift();
    if (waiter) waiter(frame);
    else if (!(frame instanceof Error)) frames.push(frame);
  };
  let ended: Error | undefined;
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1];
          if (!event) continue; // a keep-alive comment
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.replace(/^data: ?/, ""))
            .join("\n");
          deliver({ event, data: data ? JSON.parse(data) : null });
        }
      }
      ended = new Error("the event stream ended");
    } catch (error) {
      ended = error as Error;
    }
    while (waiting.length > 0) deliver(ended);
  })();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    next: (timeoutMs = 20_000) => {
      const frame = frames.shift();
      if (frame) return Promise.resolve(frame);
      if (ended) return Promise.reject(ended);
      return new Promise<SseFrame>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no SSE frame within ${timeoutMs} ms`)), timeoutMs);
        waiting.push((result) => {
          clearTimeout(timer);
          if (result instanceof Error) reject(result);
          else resolve(result);
        });
      });
    },
    close: () => abort.abort(),
  };
}
