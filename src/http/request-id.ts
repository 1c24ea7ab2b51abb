// Every response carries an x-request-id: the client's own when it is a plausible id, else a new one.
import { randomUUID } from "node:crypto";

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function requestIdFor(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
