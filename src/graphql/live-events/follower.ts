// One live subscription: it first reads on its own, from where the subscriber resumes, until it has
// caught up with its stream's shared reader (stream-reader.ts); then it joins it and delivers what
// the reader hands out. A subscriber too slow to take what is handed out leaves the reader and
// catches up on its own again, so a slow client holds a bounded queue, never the reader.
import { Repeater } from "graphql-yoga";
import type { Db } from "../../db/client.js";
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import { readEvents } from "../../domain/events.js";
import { tokensStillAllowed } from "../../domain/stream-access.js";
import { accessLost, EVENT_BATCH, QUIET_RECHECK_MS, type StreamMember, type StreamReader } from "./stream-reader.js";

/** Events handed out but not yet taken by the client, past which a subscriber leaves the reader. */
export const MAX_QUEUED_EVENTS = 500;

export interface Subscriber {
  /** The stored hash of the token it subscribed with. */
  secretHash: string;
  accountId: string;
}

/** The stream's events after `after` (null: from its first), live, as an async iterator. */
export function followStream(db: Db, joinReader: (member: StreamMember) => StreamReader, subscriber: Subscriber, after: string | null): Repeater<ChangeEvent> {
  return new Repeater<ChangeEvent>(async (push, stop) => {
    const follower = new Follower(db, subscriber, after, push, stop);
    void stop.then(() => follower.halt());
    const reader = joinReader(follower);
    try {
      await follower.run(reader);
    } catch (error) {
      stop(error);
    } finally {
      reader.remove(follower);
    }
  });
}

class Follower implements StreamMember {
  readonly secretHash: string;
  readonly accountId: string;
  /** The newest event pushed to the client. */
  private delivered: string | null;
  /** The newest event queued (live) or pushed. */
  private received: string | null;
  private queue: ChangeEvent[] = [];
  private live = false;
  private stopped = false;
  private checkedAt = Date.now();
  private wake: (() => void) | undefined;
  private reader: StreamReader | undefined;

  constructor(
    private readonly db: Db,
    subscriber: Subscriber,
    after: string | null,
    private readonly push: (event: ChangeEvent) => Promise<unknown>,
    private readonly stop: (error?: unknown) => void,
  ) {
    this.secretHash = subscriber.secretHash;
    this.accountId = subscriber.accountId;
    this.delivered = after;
    this.received = after;
  }

  receive(events: readonly ChangeEvent[]): void {
    if (!this.live || this.stopped) return;
    const received = this.received;
    const fresh = received === null ? events : events.filter((event) => event.id > received);
    if (fresh.length === 0) return;
    if (this.queue.length + fresh.length > MAX_QUEUED_EVENTS) return this.fallBehind();
    this.queue.push(...fresh);
    this.received = fresh.at(-1)!.id;
    this.wake?.();
  }

  end(error?: unknown): void {
    this.halt();
    this.stop(error);
  }

  async run(reader: StreamReader): Promise<void> {
    this.reader = reader;
    while (!this.stopped) {
      if (!this.live) {
        await this.catchUp(reader);
        continue;
      }
      const event = this.queue.shift();
      if (!event) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        continue;
      }
      await this.push(event);
      this.delivered = event.id;
    }
  }

  /** Reads on its own after the last event pushed until the reader has handed out nothing newer, then joins it. */
  private async catchUp(reader: StreamReader): Promise<void> {
    for (;;) {
      const noticesBefore = reader.notices;
      const page = await readEvents(this.db, reader.stream, { after: this.delivered, limit: EVENT_BATCH });
      if (this.stopped) return;
      if (page.events.length > 0 || Date.now() - this.checkedAt >= QUIET_RECHECK_MS) {
        const checkedAt = Date.now();
        const allowed = await tokensStillAllowed(this.db, reader.stream, [this.secretHash]);
        if (!allowed.has(this.secretHash)) return this.end(accessLost(reader.stream));
        this.checkedAt = checkedAt;
      }
      for (const event of page.events) {
        if (this.stopped) return;
        await this.push(event);
        this.delivered = event.id;
      }
      if (this.stopped) return;
      if (page.hasMore || reader.handedOutAfter(this.delivered)) continue;
      this.live = true;
      this.received = this.delivered;
      reader.join(this, this.delivered, noticesBefore);
      return;
    }
  }

  /** Too much handed out and not taken: drop the queue (the events are read again) and catch up on its own. */
  private fallBehind(): void {
    this.reader?.leave(this);
    this.live = false;
    this.queue = [];
    this.wake?.();
  }

  /** The subscription ended (the client went away, or end()): stop reading and delivering. */
  halt(): void {
    this.stopped = true;
    this.reader?.leave(this);
    this.wake?.();
  }
}
