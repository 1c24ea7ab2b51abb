// Subscribers that asked the same thing as the same account share one execution per event; the
// others get their own. A Yoga server over HTTP with the plugin and a schema whose source hands the
// same event object to every subscriber (as the live events' stream readers do), its resolvers
// counting their calls. The whole service's fan-out (1,000 subscribers) is test/api/events/fan-out.test.ts;
// a subscription ending when its client goes away, test/api/events/live.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql";
import { createYoga, Repeater } from "graphql-yoga";
import { afterAll, beforeAll, expect, it, describe } from "vitest";
import { useSharedSubscriptionExecution } from "../../src/http/graphql-endpoint/plugins/shared-subscription-execution.js";
import { subscribeOverSse, type SseSubscription } from "../helpers/sse.js";

interface Tick {
  n: number;
}

/** The subscriptions' shared source: each published tick goes, as one object, to every open one. */
class Ticks {
  readonly #listeners = new Set<(tick: Tick) => void>();
  get open(): number {
    return this.#listeners.size;
  }
  publish(tick: Tick): void {
    for (const listener of this.#listeners) listener(tick);
  }
  /** A Repeater, as the live events' followers are: it ends at once when its consumer returns, event or not. */
  follow(): Repeater<Tick> {
    return new Repeater<Tick>(async (push, stop) => {
      const listener = (tick: Tick) => void push(tick);
      this.#listeners.add(listener);
      await stop;
      this.#listeners.delete(listener);
    });
  }
}

describe("shared subscription execution", () => {
  const ticks = new Ticks();
  const calls = { label: 0 };
  let server: Server;
  let url: string;

  const TickType = new GraphQLObjectType<Tick, { actor(): { id: string } }>({
    name: "Tick",
    fields: {
      label: {
        type: GraphQLString,
        args: { prefix: { type: GraphQLString } },
        resolve: (tick, args: { prefix?: string }, context) => {
          calls.label += 1;
          return `${args.prefix ?? ""}${tick.n} for ${context.actor().id}`;
        },
      },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLString, resolve: () => "ok" } } }),
    subscription: new GraphQLObjectType({
      name: "Subscription",
      fields: { ticks: { type: TickType, subscribe: () => ticks.follow(), resolve: (tick: Tick) => tick } },
    }),
  });

  beforeAll(async () => {
    const yoga = createYoga({
      schema,
      fetchAPI: { Request, Response, ReadableStream, TextEncoder, TransformStream },
      logging: false,
      plugins: [useSharedSubscriptionExecution()],
      // The bearer token stands for its account.
      context: ({ request }) => ({ actor: () => ({ id: (request.headers.get("authorization") ?? "").replace(/^Bearer /, "") }) }),
    });
    server = createServer((request, response) => void yoga(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const QUERY = "subscription ($prefix: String) { ticks { label(prefix: $prefix) } }";

  async function opened(subscriptions: Promise<SseSubscription>[], total: number): Promise<SseSubscription[]> {
    const open = await Promise.all(subscriptions);
    for (let attempt = 0; ticks.open < total && attempt < 200; attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ticks.open).toBe(total);
    return open;
  }

  it("executes once per event for each account, document and variables, and each subscriber gets its own answer", async () => {
    const subscribers = [
      ...["alice", "alice", "alice"].map((account) => ({ account, prefix: "#" })),
      { account: "alice", prefix: "no. " },
      ...["bob", "bob"].map((account) => ({ account, prefix: "#" })),
    ];
    const streams = await opened(
      subscribers.map(({ account, prefix }) => subscribeOverSse(url, account, QUERY, { prefix })),
      subscribers.length,
    );
    calls.label = 0;
    for (const n of [1, 2]) ticks.publish({ n });
    for (const [index, stream] of streams.entries()) {
      const { account, prefix } = subscribers[index]!;
      for (const n of [1, 2]) expect(await stream.next()).toEqual({ event: "next", data: { data: { ticks: { label: `${prefix}${n} for ${account}` } } } });
    }
    // Three groups (alice "#", alice "no. ", bob "#") and two events: six executions for twelve deliveries.
    expect(calls.label).toBe(6);
    for (const stream of streams) stream.close();
  });
});
