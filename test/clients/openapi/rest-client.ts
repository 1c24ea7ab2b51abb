// A REST client typed by nothing but the types openapi-typescript generates from /openapi.json
// (schema.d.ts): plain fetch, with paths, parameters, bodies and each status's body checked by tsc.
import type { paths } from "./schema.js";

type Method = "get" | "post" | "delete";

type OperationOf<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Responses<P extends keyof paths, M extends Method> = OperationOf<P, M> extends { responses: infer R } ? R : never;
type JsonOf<Response> = Response extends { content: { "application/json": infer Body } } ? Body : undefined;

/** Which path and method pairs the document has. */
export type Route<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined | never ? never : P }[keyof paths];

/** The answer as a union over the documented statuses: checking `status` narrows `body`. */
export type Answer<P extends keyof paths, M extends Method> = {
  [Status in keyof Responses<P, M>]: { status: Status; body: JsonOf<Responses<P, M>[Status]> };
}[keyof Responses<P, M>];

type Parameters<P extends keyof paths, M extends Method> = OperationOf<P, M> extends { parameters: infer Ps } ? Ps : never;
type RequestBody<P extends keyof paths, M extends Method> =
  OperationOf<P, M> extends { requestBody?: { content: { "application/json": infer Body } } } ? Body : never;

export interface CallOptions<P extends keyof paths, M extends Method> {
  params?: Parameters<P, M> extends { path: infer Path } ? Path : never;
  query?: Parameters<P, M> extends { query?: infer Query } ? Query : never;
  body?: RequestBody<P, M>;
}

export function restClient(baseUrl: string, token: string) {
  return async function call<M extends Method, P extends Route<M>>(method: M, path: P, options: CallOptions<P, M> = {}): Promise<Answer<P, M>> {
    const filled = String(path).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((options.params as Record<string, string>)[name])));
    const query = new URLSearchParams(
      Object.entries((options.query ?? {}) as Record<string, string | number | undefined>)
        .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
        .map(([name, value]) => [name, String(value)]),
    );
    const response = await fetch(`${baseUrl}${filled}${query.size > 0 ? `?${query}` : ""}`, {
      method: method.toUpperCase(),
      headers: { authorization: `Bearer ${token}`, ...(options.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) } as Answer<P, M>;
  };
}
