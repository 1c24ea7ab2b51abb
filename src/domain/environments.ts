// Environments: creation (plan-limited) and sharing with other accounts as viewer or deployer.
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
    return recorded(tx, await tx.environment.create({ data: { ownerAccountId: owner.id, name, versionCheck: input.versionCheck ?? false } }), (created) => ({ type: "environment-created", actor, subject: { environment: created } }));
  });
}

export type ShareRole = "viewer" | "deployer";

export async function shareEnvironment(
  db: Database,
  actor: Actor | "system",
  input: { environmentId: string; accountId: string; role: ShareRole },
): Promise<EnvironmentShare> {
  if (actor !== "system") requireOwner(await environmentAccess(db, actor, input.environmentId));
  const [environment, account] = await Promise.all([
    db.environment.findUnique({ where: { id: input.environmentId } }),
    db.account.findUnique({ where: { id: input.accountId } }),
  ]);
  if (!environment) throw environmentNotFound(input.environmentId);
  if (!account) throw accountNotFound(input.accountId);
  if (environment.ownerAccountId === account.id) throw invalidRequest(["input.accountId: the owner already has full access"]);
  // Two racing shares both try to insert; the loser's retry updates the winner's row.
  return writeTransaction(db, [], async (tx) =>
    recorded(tx, await tx.environmentShare.upsert({
      where: { environmentId_accountId: { environmentId: environment.id, accountId: account.id } },
      create: { environmentId: environment.id, accountId: account.id, role: input.role },
      update: { role: input.role },
    }), (share) => ({ type: "environment-shared", actor, subject: { share, environment } })),
  );
}

/** An environment the actor can see, loaded by `load` in one query; else ENVIRONMENT_NOT_FOUND. */
export async function findEnvironment<Row>(actor: Actor, environmentId: string, load: RowLoader<Prisma.EnvironmentWhereInput, Row>): Promise<Row> {
  const environment = await load({ id: environmentId, ...visibleEnvironmentsWhere(actor) });
  if (!environment) throw environmentNotFound(environmentId);
  return environment;
}
