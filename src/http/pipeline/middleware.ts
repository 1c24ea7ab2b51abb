// The request pipeline's shape: each step gets the request, the exchange (what the steps of one
// request share) and `next`, the rest of the pipeline; it may answer itself or edit what `next` answers.
// app.ts lists the steps in order.

/** What the steps of one request share, passed to each explicitly. */
export interface Exchange {
  readonly requestId: string;
  readonly url: URL;
  /** performance.now() when the request arrived. */
  readonly started: number;
  /** The node socket's remote address (the rate limit's key for anonymous clients behind no proxy). */
  readonly socketAddress: string | undefined;
  /** A signal that aborts when the client goes away before its answer is sent (made when first asked for). */
  abandonment(): AbortSignal;
  /** The route pattern that answered, once routed ("*": the router's fallback). */
  route?: string | undefined;
  /** The GraphQL operation executed, when one was ("" when it has no name). */
  operationName?: string | undefined;
}

export type Next = () => Promise<Response>;
export type Middleware = (request: Request, exchange: Exchange, next: Next) => Promise<Response>;
export type Handler = (request: Request, exchange: Exchange) => Promise<Response>;

/** One handler: `steps[0]` runs first and sees the response last; the innermost step calls `handle`. */
export function compose(steps: readonly Middleware[], handle: Handler): Handler {
  return steps.reduceRight<Handler>((inner, step) => (request, exchange) => step(request, exchange, () => inner(request, exchange)), handle);
}

/** The response itself when its headers can change (ours can), otherwise a copy whose headers can. */
export function editable(response: Response): Response {
  try {
    // Deleting a header no response carries changes nothing; it throws only on immutable headers.
    response.headers.delete("x-toolgate-editable");
    return response;
  } catch {
    return new Response(response.body, response);
  }
}

/** Sets a header on the response, on a copy when its headers cannot change. */
export function withHeader(response: Response, name: string, value: string): Response {
  const edited = editable(response);
  edited.headers.set(name, value);
  return edited;
}
