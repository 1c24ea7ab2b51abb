// One stream's events (an environment's or an account's), read once for all of its live
// subscribers in this process. On a notice the reader reads the events after the newest one it has
// handed out, checks its subscribers' access again (one token read and one access read for all of
// them), ends those who lost it, and hands the same rows to the others. Reads never overlap: notices
// that arrive during one make one more read after it.
//
// A subscriber joins only once it has caught up on its own to at least where the reader is
// (follower.ts), so everything the reader hands out afterwards is new to it or already seen (it
// skips those): nothing is missed, nothing is delivered twice, order is id order.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Db } from "../../db/client.js";
import type { ChangeEvent } from "../../db/generated/sqlite/client.js";
import { DomainError } from "../../domain/errors.js";
import { readEvents, type EventStream } from "../../domain/events.js";
import { tokensStillAllowed } from "../../domain/stream-access.js";

/** Events read per query. */
export const EVENT_BATCH = 100;
/** A notice can be lost (a listening connection that dropped and has not noticed): read anyway this often. */
export const SAFETY_READ_MS = 5_000;
/** A quiet stream checks access again this often, so an expired token ends it without an event to deliver. */
export const QUIET_RECHECK_MS = 60_000;

/** Subscriptions handed a page of events between two turns of the event loop. */
const HAND_OUT_SLICE = 50;

/** A live subscription as its stream's reader sees it. */
export interface StreamMember {
  /** The stored hash of the token it subscribed with, read again before deliveries. */
  readonly secretHash: string;
  readonly accountId: string;
  /** Events after the ones the reader handed out before, oldest first, access already checked; called synchronously. */
  receive(events: readonly ChangeEvent[]): void;
  /** Ends the subscription, with an error (access lost, the read failed) or without (the service stops). */
  end(error?: unknown): void;
}

export function accessLost(stream: EventStream): DomainError {
  const subject = "environmentId" in stream ? `environment ${stream.environmentId}` : `account ${stream.accountId}`;
  return new DomainError("AUTH_UNAUTHORIZED", `access to ${subject} ended (token revoked or expired); subscribe again with a valid token`);
}

export class StreamReader {
  /** Every subscription of the stream: catching up on its own, or live. */
  private readonly members = new Set<StreamMember>();
  /** The subscriptions that receive what the reader reads. */
  private readonly live = new Set<StreamMember>();
  /** The newest event handed out (null: none yet); undefined until the first subscriber joins. */
  private cursor: string | null | undefined;
  /** Notices for this stream so far: one that arrived while a subscriber caught up makes a read when it joins. */
  private noticeCount = 0;
  private reading = false;
  private readAgain = false;
  private recheckDue = false;
  private checkedAt = Date.now();
  private readonly safetyTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    readonly stream: EventStream,
    private readonly onEmpty: () => void,
  ) {
    this.safetyTimer = setInterval(() => this.readSoon(), SAFETY_READ_MS).unref();
  }

  get notices(): number {
    return this.noticeCount;
  }

  add(member: StreamMember): void {
    this.members.add(member);
  }

  remove(member: StreamMember): void {
    this.live.delete(member);
    this.members.delete(member);
    if (this.members.size > 0) return;
    clearInterval(this.safetyTimer);
    this.onEmpty();
  }

  /** Whether the reader has handed out events after `cursor` (which a subscriber at `cursor` must then read on its own). */
  handedOutAfter(cursor: string | null): boolean {
    return this.cursor !== undefined && this.cursor !== null && (cursor === null || this.cursor > cursor);
  }

  /**
   * `member`, which has every event up to `cursor` and !handedOutAfter(cursor), receives what the
   * reader reads from now on. Call it in the same tick as that check. `noticesBefore`: `notices`
   * when the member's last own read began.
   */
  join(member: StreamMember, cursor: string | null, noticesBefore: number): void {
    // Without live members nobody depends on the cursor: start from the joiner's, not from older events.
    if (this.live.size === 0 && (this.cursor === undefined || this.cursor === null || (cursor !== null && cursor > this.cursor))) this.cursor = cursor;
    this.live.add(member);
    if (this.noticeCount !== noticesBefore) this.readSoon();
  }

  /** Stops handing events to `member` (it fell behind and catches up on its own). */
  leave(member: StreamMember): void {
    this.live.delete(member);
  }

  /** An event of the stream was committed, or notices may have been lost. */
  notice(): void {
    this.noticeCount += 1;
    this.readSoon();
  }

  /** A token of `accountId` was revoked: when the account has live subscriptions here, check access now. */
  tokenRevoked(accountId: string): void {
    if (![...this.live].some((member) => member.accountId === accountId)) return;
    this.recheckDue = true;
    this.readSoon();
  }

  /** Ends every subscription of the stream. */
  endAll(error?: unknown): void {
    for (const member of [...this.members]) member.end(error);
  }

  private readSoon(): void {
    if (this.live.size === 0) return;
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    void this.read();
  }

  private async read(): Promise<void> {
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        const page = await readEvents(this.db, this.stream, { after: this.cursor, limit: EVENT_BATCH });
        if (page.events.length > 0 || this.recheckDue || Date.now() - this.checkedAt >= QUIET_RECHECK_MS) {
          // Until every live subscription is checked, those that joined during a check included;
          // from the last check to the hand-out's first slice nothing awaits, so none joins unchecked.
          const checked = new Set<StreamMember>();
          for (let unchecked = [...this.live]; unchecked.length > 0; unchecked = [...this.live].filter((member) => !checked.has(member))) {
            await this.checkAccess(unchecked);
            for (const member of unchecked) checked.add(member);
          }
        }
        const newest = page.events.at(-1);
        if (newest && (this.cursor === undefined || this.cursor === null || newest.id > this.cursor)) {
          this.cursor = newest.id;
          await this.handOut(page.events);
        }
        if (page.hasMore) this.readAgain = true;
      } while (this.readAgain && this.live.size > 0);
    } catch (error) {
      for (const member of [...this.live]) this.endLive(member, error);
    } finally {
      this.reading = false;
    }
  }

  /**
   * Hands `events` to the live subscriptions a slice at a time, letting the event loop serve other
   * requests between slices: each delivery runs its subscriber's GraphQL execution and socket write
   * at once, so a thousand in one go would hold every other request back until the last.
   * Subscriptions that join meanwhile have these events already (they caught up to the cursor).
   * Call it in the same tick as the access check's end.
   */
  private async handOut(events: readonly ChangeEvent[]): Promise<void> {
    const members = [...this.live];
    for (let start = 0; start < members.length; start += HAND_OUT_SLICE) {
      if (start > 0) await yieldToEventLoop();
      for (const member of members.slice(start, start + HAND_OUT_SLICE)) member.receive(events);
    }
  }

  /** Ends those of `members` whose token or account lost access. */
  private async checkAccess(members: StreamMember[]): Promise<void> {
    // Cleared first: a revocation noticed while this runs asks for another check.
    this.recheckDue = false;
    const checkedAt = Date.now();
    const allowed = await tokensStillAllowed(this.db, this.stream, [...new Set(members.map((member) => member.secretHash))]);
    this.checkedAt = checkedAt;
    for (const member of members) if (!allowed.has(member.secretHash)) this.endLive(member, accessLost(this.stream));
  }

  private endLive(member: StreamMember, error: unknown): void {
    this.live.delete(member);
    member.end(error);
  }
}
