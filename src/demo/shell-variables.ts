// The demo's tokens and ids under the shell variable names the curl examples use (README.md,
// docs/api.md), for the banner to print as `export` lines: pasted, every example runs as written.
import type { Database } from "../db/client.js";
import { DEMO_DEPLOYER_EMAIL, DEMO_OWNER_EMAIL, type DemoTokens } from "./seed.js";
import type { DemoStarterVariables } from "./starter-variables.js";

export interface DemoShellVariables {
  /** alice's token and account id. */
  T: string;
  ACCOUNT: string;
  /** bob's (deployer on production, viewer on staging). */
  BOB_T: string;
  BOB_ACCOUNT: string;
  /** staging, where any release may be granted; production has versionCheck. */
  ENV: string;
  PRODUCTION_ENV: string;
  /** json-format 1.4.2, not granted in staging; the grant is git-lite 2.44.0's in staging (GraphiQL's starter ids). */
  RELEASE: string;
  GRANT: string;
}

export async function demoShellVariables(db: Database, tokens: DemoTokens, starter: DemoStarterVariables): Promise<DemoShellVariables | undefined> {
  const [alice, bob] = await Promise.all([
    db.account.findUnique({ where: { email: DEMO_OWNER_EMAIL }, select: { id: true } }),
    db.account.findUnique({ where: { email: DEMO_DEPLOYER_EMAIL }, select: { id: true } }),
  ]);
  if (!alice || !bob) return undefined;
  const production = await db.environment.findFirst({ where: { ownerAccountId: alice.id, name: "production" }, select: { id: true } });
  if (!production) return undefined;
  return {
    T: tokens.owner,
    ACCOUNT: alice.id,
    BOB_T: tokens.deployer,
    BOB_ACCOUNT: bob.id,
    ENV: starter.environmentId,
    PRODUCTION_ENV: production.id,
    RELEASE: starter.releaseId,
    GRANT: starter.grantId,
  };
}
