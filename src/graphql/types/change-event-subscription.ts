// Subscription.environmentEvents: an environment's change events, live, over Server-Sent Events
// (Yoga's transport). A subscriber reads the table after the last event it delivered whenever the
// change feed says something was committed (src/db/change-feed.ts), so a resumed stream (`after`)
// continues without a gap, every event is delivered once, in id (= commit) order, from whichever
// replica committed it. Access is checked at subscribe time and again before each delivery, on
// every token revocation of the subscriber's account and at least once a minute; a subscriber who
// lost it gets an error and the stream ends.
import { Repeater } from "graphql-yoga";
import { changeFeedOf, type FeedSignal } from "../../db/change-feed.js";
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import type { Actor } from "../../domain/actor.js";
import { DomainError, invalidRequest } from "../../domain/errors.js";
import { newestEventId, readEvents } from "../../domain/events.js";
import { environmentAccess } from "../../domain/permissions/index.js";
import { authenticate, tokenLookupIn } from "../../domain/tokens.js";
import { builder } from "../builder.js";
import type { Context } from "../context.js";
import { ChangeEventObject } from "./change-event.js";

/** Events read per query while catching up. */
const BATCH = 100;
/** A notice can be lost (a listening connection that dropped and has not noticed): read anyway this often. */
const SAFETY_READ_MS = 5_000;
/** A quiet stream re-checks access this often, so an expired token ends it without an event to deliver. */
const QUIET_RECHECK_MS = 60_000;

const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the request's token still authenticates someone who may see the environment. */
async function stillAllowed(context: Context, environmentId: string): Promise<boolean> {
  const authentication = await authenticate(tokenLookupIn(context.db), context.authorization);
  if (authentication.kind !== "authenticated") return false;
  try {
    await environmentAccess(context.db, authentication.actor, environmentId);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

const accessLost = (environmentId: string) =>
  new DomainError("AUTH_UNAUTHORIZED", `access to environment ${environmentId} ended (token revoked or expired); subscribe again with a valid token`);

/** Events after `after`, live: registered for notices before the first read, so a commit between a read and the wait wakes the loop. */
function liveEvents(context: Context, actor: Actor, environmentId: string, after: string | null): AsyncIterable<ChangeEvent> {
  return new Repeater<ChangeEvent>(async (push, stop) => {
    let pending = true;
    let recheck = false;
    let wake: (() => void) | undefined;
    const wakeUp = () => {
      pending = true;
      wake?.();
    };
    const unsubscribe = changeFeedOf(context.db).subscribe((signal: FeedSignal) => {
      if (signal === "closed") return stop();
      if (signal === "resync" || signal.environmentId === environmentId) return wakeUp();
      if (signal.type === "api-token-revoked" && signal.accountId === actor.id) {
        recheck = true;
        wakeUp();
      }
    });
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      wake?.();
    });
    try {
      let cursor = after;
      let checkedAt = Date.now();
      while (!stopped) {
        pending = false;
        const page = await readEvents(context.db, { environmentId }, { after: cursor, limit: BATCH });
        if (page.events.length > 0 || recheck || Date.now() - checkedAt >= QUIET_RECHECK_MS) {
          if (!(await stillAllowed(context, environmentId))) {
            stop(accessLost(environmentId));
            break;
          }
          checkedAt = Date.now();
          recheck = false;
        }
        for (const event of page.events) {
          if (stopped) break;
          await push(event);
          cursor = event.id;
        }
        if (page.hasMore || pending || stopped) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, SAFETY_READ_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } catch (error) {
      stop(error);
    } finally {
      unsubscribe();
    }
  });
}

builder.subscriptionType({ description: "Live changes, over Server-Sent Events (`Accept: text/event-stream`)." });

builder.subscriptionField("environmentEvents", (t) =>
  t.field({
    type: ChangeEventObject,
    description:
      "The environment's change events as they are committed, through any replica, in order. With `after`, the events after that one " +
      "are sent first (nothing missed while you were away), then live ones. Viewers and above may subscribe; the stream ends with an " +
      "error when your access ends (token revoked or expired).",
    args: {
      environmentId: t.arg({ type: "UUID", required: true, description: "The environment's `uuid`." }),
      after: t.arg.id({ required: false, description: "Resume after this event (its `uuid`, or a connection cursor); without it, only new events." }),
    },
    subscribe: async (_root, args, context) => {
      const actor = context.actor();
      await environmentAccess(context.db, actor, args.environmentId);
      const after = args.after === null || args.after === undefined ? null : String(args.after);
      if (after !== null && !EVENT_ID.test(after)) throw invalidRequest([`after: "${after}" is not an event UUID`]);
      // Without `after`, the stream starts at the newest event now: everything committed once the response has begun is sent.
      return liveEvents(context, actor, args.environmentId, after?.toLowerCase() ?? (await newestEventId(context.db, { environmentId: args.environmentId })));
    },
    resolve: (event: ChangeEvent) => event,
  }),
);
