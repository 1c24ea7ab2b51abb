// Strong entity tags from the bytes sent, and If-None-Match (RFC 9110 13.1.2).
import { createHash } from "node:crypto";
import type { KnownBody } from "../byte-body.js";

/** The SHA-256 of `body`, base64url. */
export const sha256Base64url = (body: Uint8Array) => createHash("sha256").update(body).digest("base64url");

/**
 * A strong ETag: the SHA-256 of the uncoded body, or `tag` when its maker has one already (a REST
 * body's is taken over its pieces: src/http/rest/json-body.ts), suffixed with the content coding
 * when the body is sent compressed, since a gzip and an identity body are different representations
 * (RFC 9110 8.8.3.3).
 */
export function strongETag(body: KnownBody, contentCoding?: string): string {
  const hash = body.tag ?? sha256Base64url(body.bytes);
  return `"${contentCoding ? `${hash}-${contentCoding}` : hash}"`;
}

/** Whether If-None-Match names `etag`; the weak comparison, as RFC 9110 asks for If-None-Match. */
export function ifNoneMatchMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted);
}
