// Live change events for one database in this process: the shared reader of each stream someone
// follows, the change feed's signals routed to them, and the cap on subscriptions per API token.
import { changeFeedOf, type ChangeFeed, type FeedSignal } from "../../db/change-feed.js";
import type { Database } from "../../db/client.js";
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import type { EventStream } from "../../domain/events.js";
import { followStream, type Subscriber } from "./follower.js";
import { releasingWhenFinished } from "./releasing-iterator.js";
import { StreamReader, type StreamMember } from "./stream-reader.js";
import { DEFAULT_MAX_SUBSCRIPTIONS_PER_TOKEN, SubscriptionSlots } from "./subscription-slots.js";

export interface LiveEventsOptions {
  /** Subscriptions one API token may hold open at once in this process. */
  maxSubscriptionsPerToken: number;
}

class LiveEvents {
  private readonly readers = new Map<string, StreamReader>();
  private readonly slots: SubscriptionSlots;

  constructor(
    private readonly db: Database,
    feed: ChangeFeed,
    options: LiveEventsOptions,
  ) {
    this.slots = new SubscriptionSlots(options.maxSubscriptionsPerToken);
    feed.subscribe((signal) => this.route(signal));
  }

  /** The stream's events after `after` (null: from its first), live; throws LIMIT_EXCEEDED when the token holds its most subscriptions. */
  follow(stream: EventStream, subscriber: Subscriber, after: string | null): AsyncIterableIterator<ChangeEvent> {
    const release = this.slots.take(subscriber.secretHash);
    return releasingWhenFinished(
      followStream(this.db, (member) => this.readerOf(stream, member), subscriber, after),
      release,
    );
  }

  /** Open subscriptions (what /metrics reports as toolgate_live_subscriptions). */
  open(): number {
    return this.slots.open();
  }

  private readerOf(stream: EventStream, member: StreamMember): StreamReader {
    const key = streamKey(stream);
    let reader = this.readers.get(key);
    if (!reader) {
      const created = new StreamReader(this.db, stream, () => {
        if (this.readers.get(key) === created) this.readers.delete(key);
      });
      this.readers.set(key, created);
      reader = created;
    }
    reader.add(member);
    return reader;
  }

  private route(signal: FeedSignal): void {
    if (signal === "closed") {
      for (const reader of this.readers.values()) reader.endAll();
      return;
    }
    if (signal === "resync") {
      for (const reader of this.readers.values()) reader.notice();
      return;
    }
    if (signal.environmentId) this.readers.get(streamKey({ environmentId: signal.environmentId }))?.notice();
    this.readers.get(streamKey({ accountId: signal.accountId }))?.notice();
    if (signal.type === "api-token-revoked") for (const reader of this.readers.values()) reader.tokenRevoked(signal.accountId);
  }
}

function streamKey(stream: EventStream): string {
  return "environmentId" in stream ? `environment:${stream.environmentId}` : `account:${stream.accountId}`;
}

const liveEventsByDatabase = new WeakMap<Database, LiveEvents>();

/** Started by the service with its change feed and settings. */
export function startLiveEvents(db: Database, feed: ChangeFeed, options: LiveEventsOptions): LiveEvents {
  const liveEvents = new LiveEvents(db, feed, options);
  liveEventsByDatabase.set(db, liveEvents);
  return liveEvents;
}

/** The service's, or (an app built in a test without one) one over the database's in-process feed with the default cap. */
export function liveEventsOf(db: Database): LiveEvents {
  let liveEvents = liveEventsByDatabase.get(db);
  if (!liveEvents) liveEvents = startLiveEvents(db, changeFeedOf(db), { maxSubscriptionsPerToken: DEFAULT_MAX_SUBSCRIPTIONS_PER_TOKEN });
  return liveEvents;
}
