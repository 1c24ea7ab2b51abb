// What admin commands print of stored rows: never a secret or its hash.
import type { ApiToken } from "../db/generated/sqlite/client.js";

export interface TokenView {
  id: string;
  accountId: string;
  name: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

/** An API token without its secretHash: the hash identifies the secret, so it is as private as the secret. */
export function tokenView(token: ApiToken): TokenView {
  const { id, accountId, name, createdAt, expiresAt, revokedAt } = token;
  return { id, accountId, name, createdAt, expiresAt, revokedAt };
}
