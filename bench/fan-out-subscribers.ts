// The subscribers of `bench/fan-out.ts`, in a process of their own so that reading a thousand event
// streams never shares an event loop with the timing of writes and probes. Receives a
// SubscribersJob over IPC, opens every stream, answers "ready", then reports, for each event, when
// the first and the last stream received it (epoch milliseconds, comparable across processes).
export interface SubscribersJob {
  url: string;
  environmentId: string;
  tokens: string[];
  perToken: number;
}

export type SubscribersReport =
  | { kind: "ready"; streams: number }
  | { kind: "received"; event: number; firstAt: number; lastAt: number }
  | { kind: "failed"; error: string };

const SUBSCRIPTION = `subscription ($environmentId: UUID!) { environmentEvents(environmentId: $environmentId) { uuid type state } }`;

const now = () => performance.timeOrigin + performance.now();
const report = (message: SubscribersReport) => process.send!(message);

async function run(job: SubscribersJob): Promise<void> {
  const total = job.tokens.length * job.perToken;
  /** Per event (1-based): how many streams have it, and when the first did. */
  const arrivals: { streams: number; firstAt: number }[] = [];
  const onFrame = (received: number, frame: string) => {
    if (!frame.startsWith("event: next")) return;
    if (frame.includes('"errors"')) return report({ kind: "failed", error: `a stream got an error: ${frame.slice(0, 300)}` });
    const arrival = (arrivals[received] ??= { streams: 0, firstAt: now() });
    arrival.streams += 1;
    if (arrival.streams === total) report({ kind: "received", event: received, firstAt: arrival.firstAt, lastAt: now() });
  };
  const open = async (token: string) => {
    const response = await fetch(`${job.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ query: SUBSCRIPTION, variables: { environmentId: job.environmentId } }),
    });
    if (response.status !== 200) throw new Error(`subscribing answered ${response.status}: ${await response.text()}`);
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = "";
      let received = 0;
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf("\n\n"); end >= 0; end = buffered.indexOf("\n\n")) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (frame.startsWith("event: next")) received += 1;
          onFrame(received, frame);
        }
      }
    })().catch((error: unknown) => report({ kind: "failed", error: String(error) }));
  };
  const wanted = job.tokens.flatMap((token) => Array.from({ length: job.perToken }, () => token));
  for (let start = 0; start < wanted.length; start += 100) await Promise.all(wanted.slice(start, start + 100).map(open));
  report({ kind: "ready", streams: wanted.length });
}

process.once("message", (job: SubscribersJob) => {
  run(job).catch((error: unknown) => report({ kind: "failed", error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
});
