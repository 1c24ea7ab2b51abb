// Shared by the change-event suites: the subscription document and reading its events.
import { expect } from "vitest";
import type { SseSubscription } from "../../helpers/sse.js";

export const ENVIRONMENT_EVENTS = /* GraphQL */ `
  subscription ($environmentId: UUID!, $after: ID) {
    environmentEvents(environmentId: $environmentId, after: $after) { uuid type environmentId actorAccountId state }
  }
`;

/** The next `count` events of a subscription, failing on anything but `next` frames with data. */
export async function nextEvents(subscription: SseSubscription, count: number): Promise<{ uuid: string; type: string; state: any }[]> {
  const events = [];
  for (let index = 0; index < count; index += 1) {
    const frame = await subscription.next();
    expect(frame.event, JSON.stringify(frame.data)).toBe("next");
    expect(frame.data.errors).toBeUndefined();
    events.push(frame.data.data.environmentEvents);
  }
  return events;
}
