// Strong entity tags from the bytes sent, and If-None-Match (RFC 9110 13.1.2).
import { bodySha256 } from "./body-digest.js";

/**
 * A strong ETag: the SHA-256 of the uncoded body, suffixed with the content coding when the body is
 * sent compressed, since a gzip and an identity body are different representations (RFC 9110 8.8.3.3).
 * With the key of the body's assembly, the hash is computed once per assembly (body-digest.ts).
 */
export function strongETag(body: Uint8Array, contentCoding?: string, assemblyKey?: string): string {
  const hash = bodySha256(body, assemblyKey);
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
