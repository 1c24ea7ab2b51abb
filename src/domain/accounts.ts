// Accounts and their API tokens: creation (admin only), token issue and revocation, and the
// bootstrap admin that makes a fresh installation usable.
import type { Database, Db, Prisma } from "../db/client.js";
import { writeTransaction } from "./write-transaction.js";
import type { Account, ApiToken } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, forbidden, invalidRequest } from "./errors.js";
import { accountInput, inputProblems, tokenInput } from "./inputs.js";
import { accountNotFound, requireAccountVisible, requireAdmin, tokenNotFound, visibleTokensWhere } from "./permissions/index.js";
import type { RowLoader } from "./reads.js";
import type { Plan } from "./plans.js";
import { generateSecret, hashSecret } from "./tokens.js";
import { announceTokenRevoked } from "./token-cache.js";
import { appendEvent, recorded } from "./events.js";

export interface NewAccount {
  name: string;
  email: string;
  plan?: Plan;
  admin?: boolean;
}

export interface IssuedToken {
  token: ApiToken;
  /** Shown once; only its hash is stored. */
  secret: string;
}

const BOOTSTRAP_ADMIN_EMAIL = "admin@toolgate.local";

export async function createAccount(db: Database, actor: Actor | "system", input: NewAccount): Promise<Account> {
  if (actor !== "system") requireAdmin(actor, "create accounts");
  const problems = inputProblems(accountInput, input, (field) => `input.${field}`);
  if (problems.length > 0) throw invalidRequest(problems);
  const email = input.email.toLowerCase();
  // A unique violation means another request took the e-mail: the retry answers ACCOUNT_CONFLICT.
  return writeTransaction(db, [], async (tx) => {
    if (await tx.account.findUnique({ where: { email }, select: { id: true } })) {
      throw new DomainError("ACCOUNT_CONFLICT", `an account with e-mail ${input.email} already exists`);
    }
    return recorded(
      tx,
      await tx.account.create({ data: { name: input.name.trim(), email, plan: input.plan ?? "free", admin: input.admin ?? false } }),
      (account) => ({ type: "account-created", actor, subject: { account } }),
    );
  });
}

/** Accounts may issue tokens for themselves; admins for anyone. */
export async function issueToken(
  db: Database,
  actor: Actor | "system",
  input: { accountId: string; name: string; expiresAt?: Date | null | undefined; secret?: string },
): Promise<IssuedToken> {
  requireAccountVisible(actor, input.accountId);
  const problems = inputProblems(
    tokenInput.pick({ name: true, expiresAt: true }),
    { name: input.name, expiresAt: input.expiresAt ?? undefined },
    (field) => `input.${field}`,
  );
  if (problems.length > 0) throw invalidRequest(problems);
  const secret = input.secret ?? generateSecret();
  const token = await writeTransaction(db, [], async (tx) => {
    const account = await tx.account.findUnique({ where: { id: input.accountId }, select: { id: true } });
    if (!account) throw accountNotFound(input.accountId);
    return recorded(
      tx,
      await tx.apiToken.create({
        data: { accountId: account.id, name: input.name.trim(), secretHash: hashSecret(secret), expiresAt: input.expiresAt ?? null },
      }),
      (token) => ({ type: "api-token-issued", actor, subject: { token } }),
    );
  });
  return { token, secret };
}

export async function revokeToken(db: Database, actor: Actor | "system", tokenId: string): Promise<ApiToken> {
  const revoked = await writeTransaction(db, [], async (tx) => {
    const token = await tx.apiToken.findFirst({ where: { id: tokenId, ...(actor === "system" ? {} : visibleTokensWhere(actor)) }, select: { id: true } });
    if (!token) throw tokenNotFound(tokenId);
    // Revoking twice keeps the first revocation's time.
    const { count } = await tx.apiToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
    const revokedToken = await tx.apiToken.findUniqueOrThrow({ where: { id: tokenId } });
    if (count === 1) appendEvent(tx, { type: "api-token-revoked", actor, subject: { token: revokedToken } });
    return revokedToken;
  });
  announceTokenRevoked(tokenId);
  return revoked;
}

/** An account the actor may see (itself; admins: any), loaded by `load`; else ACCOUNT_NOT_FOUND. */
export async function findAccount<Row>(actor: Actor, accountId: string, load: RowLoader<Prisma.AccountWhereUniqueInput, Row>): Promise<Row> {
  requireAccountVisible(actor, accountId);
  const account = await load({ id: accountId });
  if (!account) throw accountNotFound(accountId);
  return account;
}

export interface BootstrapResult {
  admin: Account;
  /** Set only when a one-time token was generated now and must be shown to the operator. */
  generatedSecret?: string;
}

/**
 * With TOOLGATE_ADMIN_TOKEN, that exact secret is registered for the bootstrap admin; once revoked it
 * stays revoked, and starting with it again is refused (the operator must configure a new one).
 * Without it, a database that has no admin gets one, with a one-time token returned for printing.
 *
 * Replicas starting together run this concurrently: every write tolerates losing a race (a unique
 * violation) by starting over, and the next pass finds what the winner wrote.
 */
export function bootstrapAdmin(db: Database, configuredSecret: string | undefined): Promise<BootstrapResult> {
  // Replicas starting together race here; the loser's retry reads the winner's admin and token.
  return writeTransaction(db, [], (tx) => bootstrapOnce(tx, configuredSecret));
}

async function bootstrapOnce(db: Db, configuredSecret: string | undefined): Promise<BootstrapResult> {
  const existingAdmin = await db.account.findFirst({ where: { admin: true }, orderBy: { createdAt: "asc" } });
  if (configuredSecret) {
    const admin = existingAdmin ?? (await bootstrapAdminAccount(db));
    const known = await db.apiToken.findUnique({ where: { secretHash: hashSecret(configuredSecret) } });
    if (known && known.accountId !== admin.id) throw forbidden("TOOLGATE_ADMIN_TOKEN is already registered for another account");
    if (known?.revokedAt) {
      throw forbidden(`TOOLGATE_ADMIN_TOKEN was revoked at ${known.revokedAt.toISOString()}; configure a new secret (revocation is permanent)`);
    }
    if (!known) await bootstrapToken(db, admin, "bootstrap (TOOLGATE_ADMIN_TOKEN)", configuredSecret);
    return { admin };
  }
  if (existingAdmin) return { admin: existingAdmin };
  // The account and its one-time token in one transaction: only the replica that created the admin
  // prints a token, and a crash cannot leave an admin nobody can use.
  const secret = generateSecret();
  const admin = await bootstrapAdminAccount(db);
  await bootstrapToken(db, admin, "bootstrap (one-time display)", secret);
  return { admin, generatedSecret: secret };
}

/** The bootstrap administrator's account: created, or an existing account with its e-mail promoted; either recorded. */
async function bootstrapAdminAccount(db: Db): Promise<Account> {
  // Conditional, so that of replicas starting together one promotes; the others' create below then
  // meets the unique e-mail, and their retry finds the winner's admin.
  const { count } = await db.account.updateMany({ where: { email: BOOTSTRAP_ADMIN_EMAIL, admin: false }, data: { admin: true } });
  if (count === 1) {
    const promoted = await db.account.findUniqueOrThrow({ where: { email: BOOTSTRAP_ADMIN_EMAIL } });
    return recorded(db, promoted, (account) => ({ type: "account-promoted", actor: "system", subject: { account } }));
  }
  const created = await db.account.create({ data: { name: "Administrator", email: BOOTSTRAP_ADMIN_EMAIL, plan: "unlimited", admin: true } });
  return recorded(db, created, (account) => ({ type: "account-created", actor: "system", subject: { account } }));
}

async function bootstrapToken(db: Db, admin: Account, name: string, secret: string): Promise<void> {
  const token = await db.apiToken.create({ data: { accountId: admin.id, name, secretHash: hashSecret(secret) } });
  appendEvent(db, { type: "api-token-issued", actor: "system", subject: { token } });
}
