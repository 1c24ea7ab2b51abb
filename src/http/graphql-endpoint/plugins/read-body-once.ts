// /graphql reads a request body once. app.ts reads it within the cap (body-limit.ts) and hands the
// text to Yoga in the server context; for a JSON POST, the only kind clients send, this plugin
// parses that text instead of Yoga reading it again from a second Request made of it (a copy, its
// stream and a second read, for every query). Any other media type gets Yoga's
// own parser, given such a copy.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

export interface BodyServerContext {
  /** The request's body as app.ts read it, within the cap; absent for GET and HEAD. */
  body?: string | undefined;
}

/** The media types Yoga parses as JSON, matched as Yoga matches them (the first of a list). */
const JSON_MEDIA_TYPES = ["application/json", "application/graphql+json"];

function isJsonPost(request: Request): boolean {
  if (request.method !== "POST") return false;
  const contentType = request.headers.get("content-type")?.split(",")[0];
  return contentType !== undefined && JSON_MEDIA_TYPES.some((type) => contentType === type || contentType.startsWith(`${type};`));
}

const badRequest = (message: string, extensions: Record<string, unknown> = {}) =>
  new GraphQLError(message, { extensions: { http: { status: 400 }, code: "BAD_REQUEST", ...extensions } });

/** GraphQL parameters from a JSON body, refused as Yoga refuses them. */
function parseJsonBody(text: string): unknown {
  let body: unknown;
  try {
    // Fetch's json() drops a byte order mark; JSON.parse would refuse it.
    body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    const { name, message } = error as Error;
    throw badRequest("POST body sent invalid JSON.", { http: { spec: true, status: 400 }, originalError: { name, message } });
  }
  if (body === null || typeof body !== "object") throw badRequest(`POST body is expected to be object but received ${body === null ? "null" : typeof body}`);
  return body;
}

export function useBodyReadOnce(): Plugin<object, BodyServerContext> {
  return {
    onRequestParse({ request, requestParser, serverContext, setRequestParser }) {
      const { body } = serverContext;
      if (body === undefined || !requestParser) return;
      if (isJsonPost(request)) {
        setRequestParser(() => parseJsonBody(body) as ReturnType<typeof requestParser>);
        return;
      }
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      setRequestParser(() => requestParser(new Request(request.url, { method: request.method, headers, body })));
    },
  };
}
