// Reads a REST request's JSON body within the size cap (body-limit.ts); malformed JSON is REQUEST_INVALID.
import { invalidRequest } from "../../domain/errors.js";
import { readBodyText } from "../body-limit.js";

export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest([`body: malformed JSON (${(error as Error).message})`]);
  }
}
