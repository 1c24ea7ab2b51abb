// Thousands of rows in a few statements, for tests of long lists: copies of one real release (its
// definition, digests and source) under new names, grants of them, and share offers of new
// environments, inserted with createMany.
// Publishing through apply would cost seconds per hundred releases.
import { randomUUID } from "node:crypto";
import type { Database } from "../../src/db/client.js";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";

/** `prefix-0000`, `prefix-0001`, …: names that sort in the order they are numbered. */
const bulkName = (prefix: string, index: number) => `${prefix}-${String(index).padStart(4, "0")}`;

/**
 * `count` copies of `template` owned by its owner, named bulkName(prefix, 0…count-1), inserted in a
 * shuffled order so that neither ids nor creation times follow the list's order by name.
 */
export async function copyRelease(db: Database, template: ToolRelease, prefix: string, count: number): Promise<void> {
  const indexes = shuffled(Array.from({ length: count }, (_, index) => index));
  const start = Date.now();
  const rows = indexes.map((index, position) => {
    const { id: _id, ...columns } = template;
    const at = new Date(start + position);
    return { ...columns, id: randomUUID(), name: bulkName(prefix, index), createdAt: at, stateChangedAt: at };
  });
  await db.toolRelease.createMany({ data: rows });
}

/** An active grant in `environmentId` of each release, by `actorId`. */
export async function grantEach(db: Database, environmentId: string, releaseIds: readonly string[], actorId: string): Promise<void> {
  const now = new Date();
  await db.grant.createMany({
    data: shuffled([...releaseIds]).map((releaseId) => ({
      id: randomUUID(),
      environmentId,
      releaseId,
      createdAt: now,
      createdById: actorId,
      stateChangedAt: now,
      stateChangedById: actorId,
    })),
  });
}

/** `count` new environments of `ownerId`, each offered to `accountId` as a viewer (offers not accepted). */
export async function offerEnvironments(db: Database, ownerId: string, accountId: string, count: number): Promise<void> {
  const start = Date.now();
  const environments = Array.from({ length: count }, (_, index) => ({ id: randomUUID(), ownerAccountId: ownerId, name: bulkName("offered", index) }));
  await db.environment.createMany({ data: environments });
  await db.environmentShare.createMany({
    data: environments.map((environment, index) => ({ environmentId: environment.id, accountId, role: "viewer", createdAt: new Date(start + index) })),
  });
}

/** A fixed permutation (a linear congruential shuffle), so that failures reproduce. */
function shuffled<T>(items: T[]): T[] {
  let state = 12345;
  for (let index = items.length - 1; index > 0; index -= 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const other = state % (index + 1);
    [items[index], items[other]] = [items[other]!, items[index]!];
  }
  return items;
}
