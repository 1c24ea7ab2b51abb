// Subscription.environmentEvents: an environment's change events, live, over Server-Sent Events
// (Yoga's transport), served by src/graphql/live-events/: the subscribers of an environment in this
// process share one read per change feed notice (src/db/change-feed.ts). A resumed stream (`after`)
// continues without a gap, every event is delivered once, in id (= commit) order, from whichever
// replica committed it. Access is checked at subscribe time and again before each delivery (once
// for all subscribers), on every token revocation of the subscriber's account and at least once a
// minute; a subscriber who lost it gets an error and the stream ends.
import { invalidRequest, unauthorized } from "../../domain/errors.js";
import { newestEventId } from "../../domain/events.js";
import { environmentAccess } from "../../domain/permissions/index.js";
import { bearerSecretHash } from "../../domain/tokens.js";
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import { builder } from "../builder.js";
import { liveEventsOf } from "../live-events/live-events.js";
import { ChangeEventObject } from "./change-event.js";

const EVENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

builder.subscriptionType({ description: "Live changes, over Server-Sent Events (`Accept: text/event-stream`)." });

builder.subscriptionField("environmentEvents", (t) =>
  t.field({
    type: ChangeEventObject,
    description:
      "The environment's change events as they are committed, through any replica, in order. With `after`, the events after that one " +
      "are sent first (nothing missed while you were away), then live ones. Viewers and above may subscribe; the stream ends with an " +
      "error when your access ends (token revoked or expired). One API token may hold a limited number of subscriptions open at once " +
      "(LIMIT_EXCEEDED past it).",
    args: {
      environmentId: t.arg({ type: "UUID", required: true, description: "The environment's `uuid`." }),
      after: t.arg.id({ required: false, description: "Resume after this event (its `uuid`, or a connection cursor); without it, only new events." }),
    },
    subscribe: async (_root, args, context) => {
      const actor = context.actor();
      const secretHash = bearerSecretHash(context.authorization);
      if (!secretHash) throw unauthorized();
      await environmentAccess(context.db, actor, args.environmentId);
      const after = args.after === null || args.after === undefined ? null : String(args.after);
      if (after !== null && !EVENT_ID.test(after)) throw invalidRequest([`after: "${after}" is not an event UUID`]);
      const stream = { environmentId: args.environmentId };
      // Without `after`, the stream starts at the newest event now: everything committed once the response has begun is sent.
      const start = after?.toLowerCase() ?? (await newestEventId(context.db, stream));
      return liveEventsOf(context.db).follow(stream, { secretHash, accountId: actor.id }, start);
    },
    resolve: (event: ChangeEvent) => event,
  }),
);
