// Reads a REST request's JSON body within the size cap (body-limit.ts): a body declared as anything
// but JSON is UNSUPPORTED_MEDIA_TYPE, malformed JSON is REQUEST_INVALID.
import { DomainError, invalidRequest } from "../../domain/errors.js";
import { readBodyText } from "../api/body-limit.js";
import { jsonDepthExceeds, tooDeep } from "../graphql-endpoint/json-depth.js";

/** A JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `application/json`, or a JSON-based type (`application/merge-patch+json`); parameters such as charset aside. */
function isJsonMediaType(contentType: string | null): boolean {
  const essence = contentType?.split(";")[0]!.trim().toLowerCase() ?? "";
  return essence === "application/json" || /^application\/[!#$&^\w.+-]+\+json$/.test(essence);
}

export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  // Without a body, its declared type does not matter (a restore sent by a client that always sets one).
  if (text.trim() === "") return undefined;
  const contentType = request.headers.get("content-type");
  if (!isJsonMediaType(contentType)) {
    throw new DomainError("UNSUPPORTED_MEDIA_TYPE", `content-type ${contentType ?? "(none)"} is not supported; send the body as application/json`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest([`body: malformed JSON (${(error as Error).message})`]);
  }
  if (jsonDepthExceeds(body)) throw invalidRequest([tooDeep("body")]);
  return body;
}
