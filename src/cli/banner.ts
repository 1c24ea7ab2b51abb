// What `serve` prints once listening: where everything is and the token to paste into GraphiQL.
import type { Config } from "../config.js";
import { redactDatabaseUrl } from "../db/redact.js";
import type { Service } from "../service.js";

export function printBanner(service: Service, config: Config): void {
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
  lines.push("");
  process.stdout.write(`${lines.join("\n")}\n`);
}
