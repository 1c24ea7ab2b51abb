// A webhook message: the change event as the REST API shows it (GET …/events), and the Standard
// Webhooks headers that sign it (`webhook-id`: the delivery's id, the same on every attempt).
import { Webhook as Signer } from "standardwebhooks";
import type { ChangeEvent } from "../db/generated/sqlite/client.js";

/** The REST event object as JSON text; `state` is stored as JSON text already, so it is not parsed again. */
export function eventBody(event: ChangeEvent): string {
  const text = (value: string | null) => JSON.stringify(value);
  return (
    `{"id":${text(event.id)},"type":${text(event.type)},"occurredAt":${text(event.occurredAt.toISOString())},` +
    `"actorAccountId":${text(event.actorAccountId)},"environmentId":${text(event.environmentId)},"releaseId":${text(event.releaseId)},` +
    `"accountId":${text(event.accountId)},"state":${event.state}}`
  );
}

/** The headers that identify and sign `body`, sent at `sentAt`. */
export function signedHeaders(secret: string, messageId: string, sentAt: Date, body: string): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(sentAt.getTime() / 1000)),
    "webhook-signature": new Signer(secret).sign(messageId, sentAt, body),
  };
}
