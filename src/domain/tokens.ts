// API tokens: random 256-bit secrets shown once; only their SHA-256 hash is stored.
import { createHash, randomBytes } from "node:crypto";
import { findFirstPlanned, type Database } from "../db/client.js";
import type { Actor, Authentication } from "./actor.js";

const TOKEN_PREFIX = "tg_";

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

/** Every column of the account: the actor. */
const ACCOUNT = { id: true, name: true, email: true, plan: true, admin: true, createdAt: true } as const satisfies Record<keyof Actor, true>;

/** Every request's first read: one planned statement (src/db/planned-reads.ts), not a query through Prisma's engine. */
export const tokenLookupIn =
  (db: Database): TokenLookup =>
  (secretHash) =>
    findFirstPlanned(db, "apiToken", {
      where: { secretHash },
      select: { id: true, revokedAt: true, expiresAt: true, account: { select: ACCOUNT } },
    }) as Promise<StoredToken | null>;

/** The stored hash of the bearer token an Authorization header carries, or null when it carries none. */
export function bearerSecretHash(authorization: string | null): string | null {
  const match = authorization ? BEARER.exec(authorization.trim()) : null;
  return match ? hashSecret(match[1]!) : null;
}

/** Why a stored token no longer authenticates, or null while it does. */
export function tokenRejection(token: Pick<StoredToken, "revokedAt" | "expiresAt">, now: Date): string | null {
  if (token.revokedAt) return "API token has been revoked";
  if (token.expiresAt && token.expiresAt <= now) return "API token has expired";
  return null;
}

export async function authenticate(lookup: TokenLookup, authorization: string | null, now = new Date()): Promise<Authentication> {
  if (authorization === null || authorization === "") return { kind: "anonymous" };
  const secretHash = bearerSecretHash(authorization);
  if (!secretHash) return { kind: "rejected", reason: "malformed Authorization header: expected Bearer <token>" };
  const token = await lookup(secretHash);
  if (!token) return { kind: "rejected", reason: "unknown API token" };
  const rejection = tokenRejection(token, now);
  if (rejection) return { kind: "rejected", reason: rejection };
  return { kind: "authenticated", actor: token.account };
}
