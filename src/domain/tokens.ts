// API tokens: random 256-bit secrets shown once; only their SHA-256 hash is stored.
import { createHash, randomBytes } from "node:crypto";
import type { Database } from "../db/client.js";
import type { Actor, Authentication } from "./actor.js";

export const TOKEN_PREFIX = "tg_";

export function generateSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

// RFC 7235: the scheme is case-insensitive and separated from the credentials by one or more spaces.
const BEARER = /^Bearer +([\x21-\x7e]+)$/i;

/** What authentication needs of a stored token: its state and its account. */
export interface StoredToken {
  id: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  account: Actor;
}

/** Where stored tokens come from: the database, or a cache in front of it. */
export type TokenLookup = (secretHash: string) => Promise<StoredToken | null>;

export const tokenLookupIn =
  (db: Database): TokenLookup =>
  (secretHash) =>
    db.apiToken.findUnique({ where: { secretHash }, select: { id: true, revokedAt: true, expiresAt: true, account: true } });

export async function authenticate(lookup: TokenLookup, authorization: string | null, now = new Date()): Promise<Authentication> {
  if (authorization === null || authorization === "") return { kind: "anonymous" };
  const match = BEARER.exec(authorization.trim());
  if (!match) return { kind: "rejected", reason: "malformed Authorization header: expected Bearer <token>" };
  const token = await lookup(hashSecret(match[1]!));
  if (!token) return { kind: "rejected", reason: "unknown API token" };
  if (token.revokedAt) return { kind: "rejected", reason: "API token has been revoked" };
  if (token.expiresAt && token.expiresAt <= now) return { kind: "rejected", reason: "API token has expired" };
  return { kind: "authenticated", actor: token.account };
}
