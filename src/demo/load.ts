// What `serve --demo` does after bootstrap: seed the demo data (once), issue the demo accounts'
// tokens, and find the ids GraphiQL's starter document is pre-filled with.
import type { Database } from "../db/client.js";
import { seedDemo, type DemoTokens } from "./seed.js";
import { demoStarterVariables, type DemoStarterVariables } from "./starter-variables.js";

export interface LoadedDemo {
  /** Undefined when the database already had accounts other than the demo's (nothing was loaded). */
  demoTokens: DemoTokens | undefined;
  graphiqlVariables: DemoStarterVariables | undefined;
}

export async function loadDemo(db: Database): Promise<LoadedDemo> {
  const { tokens } = await seedDemo(db);
  return { demoTokens: tokens, graphiqlVariables: tokens ? await demoStarterVariables(db) : undefined };
}
