// What `serve --demo` does after bootstrap: seed the demo data (once), issue the demo accounts'
// tokens, and find the ids GraphiQL's starter document is pre-filled with and the banner prints.
import type { Database } from "../db/client.js";
import { issueDemoTokens, seedDemo, type DemoTokens } from "./seed.js";
import { demoShellVariables, type DemoShellVariables } from "./shell-variables.js";
import { demoStarterVariables, type DemoStarterVariables } from "./starter-variables.js";

export interface LoadedDemo {
  /** Undefined when the database already had accounts other than the demo's (nothing was loaded). */
  demoTokens: DemoTokens | undefined;
  graphiqlVariables: DemoStarterVariables | undefined;
  /** What the banner prints for the curl examples. */
  shellVariables: DemoShellVariables | undefined;
}

export async function loadDemo(db: Database): Promise<LoadedDemo> {
  const seed = await seedDemo(db);
  const tokens = seed.tokens ?? (await issueDemoTokens(db));
  const graphiqlVariables = tokens ? await demoStarterVariables(db) : undefined;
  const shellVariables = tokens && graphiqlVariables ? await demoShellVariables(db, tokens, graphiqlVariables) : undefined;
  return { demoTokens: tokens, graphiqlVariables, shellVariables };
}
