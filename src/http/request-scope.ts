// The id of the request being served, wherever the code runs on its behalf (Yoga's error masking,
// for one, never sees our context), so every log line of a request carries its id; and the GraphQL
// operation it ran, which the request metrics label it with.
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestScope {
  requestId: string;
  /** The GraphQL operation executed, when one was (yoga.ts notes it). */
  operationName?: string | undefined;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** `requestScope` is the caller's to read after `work`: what was noted in it while serving. */
export function runInRequestScope<T>(requestScope: string | RequestScope, work: () => T): T {
  return scope.run(typeof requestScope === "string" ? { requestId: requestScope } : requestScope, work);
}

export function currentRequestScope(): RequestScope | undefined {
  return scope.getStore();
}

export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

export function noteOperationName(name: string | undefined): void {
  const store = scope.getStore();
  if (store) store.operationName = name ?? "";
}
