// What `serve` prints once listening: where everything is, the token to paste into GraphiQL and, in
// demo mode, the demo's tokens and ids as shell variables for the curl examples.
import type { Config } from "../config.js";
import { redactDatabaseUrl } from "../db/redact.js";
import type { DemoShellVariables } from "../demo/shell-variables.js";
import type { Service } from "../service.js";

export function printBanner(service: Service, config: Config, demoVariables?: DemoShellVariables): void {
  const lines = [
    "",
    `toolgate is listening on ${service.url}`,
    `  GraphiQL   ${service.url}/graphql`,
    `  REST API   ${service.url}/v1`,
    `  health     ${service.url}/healthz   readiness ${service.url}/readyz`,
    `  database   ${redactDatabaseUrl(config.databaseUrl)}`,
  ];
  if (service.adminToken && !config.adminToken) {
    lines.push("", "A bootstrap admin was created. Its token is shown only now; store it:", `  Authorization: Bearer ${service.adminToken}`);
  }
  if (config.demo && !service.demoTokens) {
    lines.push("", "Demo mode: the database already has accounts other than the demo's; no demo data was loaded and GraphiQL is not pre-filled.");
  }
  if (service.demoTokens) {
    lines.push(
      "",
      "Demo mode: day-long tokens for the demo accounts (GraphiQL is pre-filled with alice's, and with ids of the demo data):",
      `  alice (owner)    Bearer ${service.demoTokens.owner}`,
      `  bob (deployer)   Bearer ${service.demoTokens.deployer}`,
    );
  }
  if (demoVariables) {
    const { T, ACCOUNT, BOB_T, BOB_ACCOUNT, ENV, PRODUCTION_ENV, RELEASE, GRANT } = demoVariables;
    lines.push(
      "",
      "For the examples of README.md and docs/, paste into your shell (in the project directory): the URL, alice's",
      "token and id, bob's, environments staging (ENV) and production, a release not yet granted in staging, a grant",
      "in staging, and the two headers every curl example sends:",
      // Unindented, so a triple-click copies a line that runs as is.
      `export B=${service.url} T=${T} ACCOUNT=${ACCOUNT} BOB_T=${BOB_T} BOB_ACCOUNT=${BOB_ACCOUNT}`,
      `export ENV=${ENV} PRODUCTION_ENV=${PRODUCTION_ENV} RELEASE=${RELEASE} GRANT=${GRANT}`,
      // Expanded when pasted, after the line that sets T.
      'export H="Authorization: Bearer $T" J="Content-Type: application/json"',
    );
  }
  lines.push("");
  process.stdout.write(`${lines.join("\n")}\n`);
}
