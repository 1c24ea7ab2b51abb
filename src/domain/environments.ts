// Environments: creation (plan-limited) and sharing with other accounts as viewer or deployer:
// an owner offers, the account accepts.
import type { Database, Prisma } from "../db/client.js";
import { writeLock, writeTransaction } from "./write-transaction.js";
import type { Environment, EnvironmentShare } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, invalidRequest, limitExceeded } from "./errors.js";
import { accountNotFound, environmentAccess, environmentNotFound, requireAccountVisible, requireOwner, visibleEnvironmentsWhere } from "./permissions/index.js";
import type { RowLoader } from "./reads.js";
import { environmentInput, inputProblems } from "./inputs.js";
import { limitsOf } from "./plans.js";
import { recorded } from "./events.js";

export interface NewEnvironment {
  accountId: string;
  name: string;
  versionCheck?: boolean;
}

/** Accounts create environments for themselves; admins for anyone. */
export async function createEnvironment(db: Database, actor: Actor | "system", input: NewEnvironment): Promise<Environment> {
  requireAccountVisible(actor, input.accountId);
  const problems = inputProblems(environmentInput.pick({ name: true }), input, (field) => `input.${field}`);
  if (problems.length > 0) throw invalidRequest(problems);
  const name = input.name.trim();
  return writeTransaction(db, [writeLock.account(input.accountId)], async (tx) => {
    const owner = await tx.account.findUnique({ where: { id: input.accountId } });
    if (!owner) throw accountNotFound(input.accountId);
    if (await tx.environment.findUnique({ where: { ownerAccountId_name: { ownerAccountId: owner.id, name } }, select: { id: true } })) {
      throw new DomainError("ENVIRONMENT_CONFLICT", `account ${owner.id} already has an environment named ${name}`);
    }
    const limit = limitsOf(owner.plan).environmentsPerAccount;
    if (limit !== null && (await tx.environment.count({ where: { ownerAccountId: owner.id } })) >= limit) {
      throw limitExceeded(`plan ${owner.plan} allows ${limit} environments per account`);
    }
    // A unique violation here means another writer won the name: the retry answers ENVIRONMENT_CONFLICT.
    return recorded(tx, await tx.environment.create({ data: { ownerAccountId: owner.id, name, versionCheck: input.versionCheck ?? false } }), (created) => ({
      type: "environment-created",
      actor,
      subject: { environment: created },
    }));
  });
}

export type ShareRole = "viewer" | "deployer";

/**
 * Shares an environment. An owner's share is an offer the account accepts (`acceptEnvironmentShare`)
 * before it gives access, and an owner learns nothing of the account from it: an id that names no
 * account gets the same answer as an offer, with nothing stored. Administrators and the system (the
 * CLI, the demo) share at once. Sharing again changes the role (of the offer, or of the share).
 */
export async function shareEnvironment(
  db: Database,
  actor: Actor | "system",
  input: { environmentId: string; accountId: string; role: ShareRole },
): Promise<EnvironmentShare> {
  if (actor !== "system") requireOwner(await environmentAccess(db, actor, input.environmentId));
  const givenAtOnce = actor === "system" || actor.admin;
  const [environment, account] = await Promise.all([
    db.environment.findUnique({ where: { id: input.environmentId } }),
    db.account.findUnique({ where: { id: input.accountId } }),
  ]);
  if (!environment) throw environmentNotFound(input.environmentId);
  if (environment.ownerAccountId === input.accountId) throw invalidRequest(["input.accountId: the owner already has full access"]);
  if (!account) {
    if (givenAtOnce) throw accountNotFound(input.accountId);
    return { environmentId: environment.id, accountId: input.accountId, role: input.role, createdAt: new Date(), acceptedAt: null };
  }
  const where = { environmentId_accountId: { environmentId: environment.id, accountId: account.id } };
  // Two racing shares both try to insert; the loser's retry updates the winner's row.
  return writeTransaction(db, [], async (tx) => {
    const existing = await tx.environmentShare.findUnique({ where, select: { acceptedAt: true } });
    const acceptedAt = existing?.acceptedAt ?? (givenAtOnce ? new Date() : null);
    const share = await tx.environmentShare.upsert({
      where,
      create: { environmentId: environment.id, accountId: account.id, role: input.role, acceptedAt },
      update: { role: input.role, acceptedAt },
    });
    return recorded(tx, share, (row) =>
      row.acceptedAt
        ? { type: "environment-shared", actor, subject: { share: row, environment } }
        : { type: "environment-share-offered", actor, subject: { offer: row } },
    );
  });
}

/**
 * Accepts the share of an environment offered to the actor: from now on it gives its role.
 * Accepting again changes nothing; with no offer it is ENVIRONMENT_NOT_FOUND.
 */
export async function acceptEnvironmentShare(db: Database, actor: Actor, environmentId: string): Promise<EnvironmentShare> {
  const where = { environmentId_accountId: { environmentId, accountId: actor.id } };
  return writeTransaction(db, [], async (tx) => {
    const offer = await tx.environmentShare.findUnique({ where, include: { environment: { select: { ownerAccountId: true } } } });
    if (!offer) throw environmentNotFound(environmentId);
    const { environment, ...share } = offer;
    if (share.acceptedAt) return share;
    // Only one of two racing accepts changes the row, so the event is recorded once.
    const { count } = await tx.environmentShare.updateMany({
      where: { environmentId, accountId: actor.id, acceptedAt: null },
      data: { acceptedAt: new Date() },
    });
    const accepted = await tx.environmentShare.findUniqueOrThrow({ where });
    return count === 1 ? recorded(tx, accepted, (row) => ({ type: "environment-shared", actor, subject: { share: row, environment } })) : accepted;
  });
}

/** An environment the actor can see, loaded by `load` in one query; else ENVIRONMENT_NOT_FOUND. */
export async function findEnvironment<Row>(actor: Actor, environmentId: string, load: RowLoader<Prisma.EnvironmentWhereInput, Row>): Promise<Row> {
  const environment = await load({ id: environmentId, ...visibleEnvironmentsWhere(actor) });
  if (!environment) throw environmentNotFound(environmentId);
  return environment;
}
