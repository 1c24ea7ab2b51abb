// The id of the request being served, wherever the code runs on its behalf (Yoga's error masking,
// for one, never sees our context), so every log line of a request carries its id.
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<{ requestId: string }>();

export function runInRequestScope<T>(requestId: string, work: () => T): T {
  return scope.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}
