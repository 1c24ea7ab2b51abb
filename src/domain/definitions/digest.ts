// Content digests of tool releases (semantics.md, "Tool releases"): equal content gives an
// equal digest whatever the key order, thanks to canonical JSON.
import { createHash } from "node:crypto";
import type { MiddlewareDefinition } from "./schema.js";

export const METADATA_VERSION = "0.1.0";

const METADATA_DOMAIN = "toolgate:tool-middleware-metadata:v1\0";
const SOURCE_DOMAIN = "toolgate:tool-middleware-source:v1\0";

/**
 * RFC 8785 style canonical JSON: object keys sorted by UTF-16 code units, no whitespace,
 * strings and numbers as JSON.stringify writes them. Object members that are undefined are
 * dropped, as JSON.stringify does; other non-JSON values throw.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalize number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort() // default sort compares UTF-16 code units, as RFC 8785 requires
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(",")}}`;
  }
  throw new TypeError(`cannot canonicalize ${typeof value}`);
}

function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

export function metadataDigest(definition: MiddlewareDefinition): string {
  return sha256(`${METADATA_DOMAIN}${METADATA_VERSION}\0${canonicalJson(definition)}`);
}

export interface ComponentSource {
  componentId: string;
  componentRevision: number;
  componentName: string;
}

export function sourceDigest({ componentId, componentRevision, componentName }: ComponentSource): string {
  return sha256(`${SOURCE_DOMAIN}${componentId}\0${componentRevision}\0${componentName}`);
}
