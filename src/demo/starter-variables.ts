// The ids GraphiQL's starter document (src/http/pages/graphiql.ts) is pre-filled with in demo mode, looked
// up by name in the demo data (seed.ts) on every start, so they are this database's. With them every
// starter operation runs as shipped: staging has no versionCheck, so any release may be granted
// there; the grant is a manual one in staging; the coordinate is that grant's release.
import type { Database } from "../db/client.js";
import { DEMO_OWNER_EMAIL } from "./seed.js";

export interface DemoStarterVariables {
  environmentId: string;
  releaseId: string;
  grantId: string;
  account: string;
  name: string;
  version: string;
}

/** Undefined when the demo data is not (all) there, e.g. a database that had other accounts. */
export async function demoStarterVariables(db: Database): Promise<DemoStarterVariables | undefined> {
  const alice = await db.account.findUnique({ where: { email: DEMO_OWNER_EMAIL } });
  if (!alice) return undefined;
  const current = (name: string, version: string) =>
    db.toolRelease.findFirst({ where: { ownerAccountId: alice.id, name, version, lifecycle: { not: "superseded" } } });
  const [staging, granted, released] = await Promise.all([
    db.environment.findFirst({ where: { ownerAccountId: alice.id, name: "staging" } }),
    current("git-lite", "2.44.0"),
    current("json-format", "1.4.2"),
  ]);
  if (!staging || !granted || !released) return undefined;
  const grant = await db.grant.findUnique({ where: { environmentId_releaseId: { environmentId: staging.id, releaseId: granted.id } } });
  if (!grant) return undefined;
  return { environmentId: staging.id, releaseId: released.id, grantId: grant.id, account: alice.email, name: granted.name, version: granted.version };
}
