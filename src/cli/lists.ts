// What the list commands read: every row of a kind (optionally one account's), oldest first, as the
// admin commands print rows; tokens without their hash (views.ts).
import type { Database } from "../db/client.js";
import { tokenView, type TokenView } from "./views.js";

export interface AccountRow {
  id: string;
  name: string;
  email: string;
  plan: string;
  admin: boolean;
  createdAt: Date;
}

export interface EnvironmentRow {
  id: string;
  ownerAccountId: string;
  name: string;
  versionCheck: boolean;
  createdAt: Date;
}

const oldestFirst = [{ createdAt: "asc" as const }, { id: "asc" as const }];

export const listAccounts = (db: Database): Promise<AccountRow[]> =>
  db.account.findMany({ select: { id: true, name: true, email: true, plan: true, admin: true, createdAt: true }, orderBy: oldestFirst });

export const listEnvironments = (db: Database, accountId: string | undefined): Promise<EnvironmentRow[]> =>
  db.environment.findMany({
    where: accountId === undefined ? {} : { ownerAccountId: accountId },
    select: { id: true, ownerAccountId: true, name: true, versionCheck: true, createdAt: true },
    orderBy: oldestFirst,
  });

export async function listTokens(db: Database, accountId: string | undefined): Promise<TokenView[]> {
  const tokens = await db.apiToken.findMany({ where: accountId === undefined ? {} : { accountId }, orderBy: oldestFirst });
  return tokens.map(tokenView);
}

/** The bootstrap admin (src/domain/accounts.ts bootstrapAdmin): the oldest admin account. */
export const findBootstrapAdmin = (db: Database) => db.account.findFirst({ where: { admin: true }, orderBy: oldestFirst, select: { id: true } });
