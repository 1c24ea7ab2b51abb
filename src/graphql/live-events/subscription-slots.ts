// The cap on live subscriptions one API token may hold open in this process: a leaked client loop
// or a misconfigured fleet sharing one token cannot hold every stream a replica can serve.
import { limitExceeded } from "../../domain/errors.js";

export const DEFAULT_MAX_SUBSCRIPTIONS_PER_TOKEN = 100;

export class SubscriptionSlots {
  private readonly heldByToken = new Map<string, number>();
  private held = 0;

  constructor(private readonly perToken: number) {}

  /** Takes one of the token's slots, or throws LIMIT_EXCEEDED when it holds them all; returns the release (safe to call twice). */
  take(secretHash: string): () => void {
    const holding = this.heldByToken.get(secretHash) ?? 0;
    if (holding >= this.perToken) {
      throw limitExceeded(
        `this API token already holds ${this.perToken} open subscription${this.perToken === 1 ? "" : "s"}, the most one token may hold at once; close one, or subscribe with another token`,
      );
    }
    this.heldByToken.set(secretHash, holding + 1);
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const left = (this.heldByToken.get(secretHash) ?? 1) - 1;
      if (left === 0) this.heldByToken.delete(secretHash);
      else this.heldByToken.set(secretHash, left);
    };
  }

  /** Subscriptions open now, all tokens together (what /metrics reports). */
  open(): number {
    return this.held;
  }
}
