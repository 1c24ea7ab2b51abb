// Which media type a /graphql answer is served in: the client's most preferred of the two the
// GraphQL-over-HTTP spec defines. The media type decides the status of request errors
// (graphql-status.ts), so it is negotiated here rather than left to Yoga, which serves
// `application/json` whenever the Accept header also lists it, whatever its preference.
import { isAsyncIterable, processRegularResult, type Plugin } from "graphql-yoga";
import { GRAPHQL_RESPONSE_JSON } from "./graphql-status.js";

const APPLICATION_JSON = "application/json";
const STREAMING_TYPES = new Set(["text/event-stream", "multipart/mixed"]);

/**
 * - The first of `application/graphql-response+json` and `application/json` in the client's order
 *   of preference (q values, then position).
 * - No Accept header, or a wildcard first (curl sends one): `application/json`, which the graphql-http
 *   audits 80D8 and 47DE expect (and Yoga does). The spec's "Legacy watershed" section says that
 *   since 2025-01-01 a request without Accept SHOULD be treated as `application/graphql-response+json`;
 *   the audits predate that, and toolgate passes them without warnings. Clients send an Accept header.
 * - An Accept header naming neither: `application/json`, as toolgate answers every error in JSON
 *   (the spec allows this instead of 406; Yoga would send an empty 406).
 * - A streaming transport preferred (`text/event-stream`, `multipart/mixed`): undefined, Yoga's to serve.
 */
function responseMediaType(accept: string | null): string | undefined {
  if (!accept?.trim()) return APPLICATION_JSON;
  const ranges = accept
    .split(",")
    .map((part, position) => {
      const [type = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
      const q = parameters.find((parameter) => parameter.startsWith("q="));
      return { type, q: q ? Number(q.slice(2)) : 1, position };
    })
    .filter((range) => range.type !== "" && !(range.q <= 0) && !Number.isNaN(range.q))
    .sort((a, b) => b.q - a.q || a.position - b.position);
  for (const { type } of ranges) {
    if (STREAMING_TYPES.has(type)) return undefined;
    if (type === GRAPHQL_RESPONSE_JSON) return GRAPHQL_RESPONSE_JSON;
    if (type === APPLICATION_JSON || type === "*/*" || type === "application/*") return APPLICATION_JSON;
  }
  return APPLICATION_JSON;
}

/** Serves every single result in responseMediaType; streams and streaming transports stay Yoga's. */
export function useNegotiatedResponseMediaType(): Plugin {
  return {
    onResultProcess({ request, result, setResultProcessor }) {
      if (Array.isArray(result) || isAsyncIterable(result)) return;
      const mediaType = responseMediaType(request.headers.get("accept"));
      if (mediaType) setResultProcessor(processRegularResult, mediaType);
    },
  };
}
