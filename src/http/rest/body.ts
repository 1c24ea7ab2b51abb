// Reads a REST request's JSON body within the size cap (body-limit.ts); malformed JSON is REQUEST_INVALID.
import { invalidRequest } from "../../domain/errors.js";
import { readBodyText } from "../body-limit.js";
import { jsonDepthExceeds, tooDeep } from "../json-depth.js";

/** A JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest([`body: malformed JSON (${(error as Error).message})`]);
  }
  if (jsonDepthExceeds(body)) throw invalidRequest([tooDeep("body")]);
  return body;
}
