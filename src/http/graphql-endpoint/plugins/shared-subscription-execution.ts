// A live event goes to every subscriber of its stream (src/graphql/live-events/), each of which
// would run its own GraphQL execution over the same row. Subscribers who sent the same document and
// variables as the same account get the same result, so it is executed once per such group and
// event: with a thousand subscribers of one environment, that is one execution per account instead
// of one per stream. Each subscriber still has its own response (its errors masked, its bytes
// written) through Yoga.
import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { mapAsyncIterator } from "@whatwg-node/promise-helpers";
import type { Context } from "../../../graphql/context.js";

type Execution = ExecutionResult | Promise<ExecutionResult>;

export function useSharedSubscriptionExecution(): Plugin<Context> {
  const documentIds = new WeakMap<DocumentNode, number>();
  let documents = 0;
  /** By event row (handed to all of a stream's live subscribers as one object), then by group. */
  const executions = new WeakMap<object, Map<string, Execution>>();

  /** What decides a subscriber's result besides the event; undefined when it cannot be told (then nothing is shared). */
  const groupOf = (args: ExecutionArgs): string | undefined => {
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) documentIds.set(args.document, (documentId = documents++));
    let actor: string;
    try {
      actor = JSON.stringify((args.contextValue as Context).actor());
    } catch {
      return undefined;
    }
    return `${documentId}\0${args.operationName ?? ""}\0${JSON.stringify(args.variableValues ?? {})}\0${actor}`;
  };

  const executeFor = (args: ExecutionArgs, group: string | undefined, event: unknown): Execution => {
    if (group === undefined || typeof event !== "object" || event === null) return execute({ ...args, rootValue: event });
    let byGroup = executions.get(event);
    if (!byGroup) executions.set(event, (byGroup = new Map()));
    let execution = byGroup.get(group);
    if (!execution) byGroup.set(group, (execution = execute({ ...args, rootValue: event })));
    return execution;
  };

  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(async (args) => {
        const events = await createSourceEventStream(args);
        if (!(Symbol.asyncIterator in events)) return events;
        const group = groupOf(args);
        return mapAsyncIterator(events, (event) => executeFor(args, group, event));
      });
    },
  };
}
