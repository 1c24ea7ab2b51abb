// Before anything is measured: every request of every scenario gets the same status (200) and the
// same bytes from the floor as from toolgate. A floor answering anything else measures nothing.
import type { Subject } from "./dataset.js";
import type { BenchRequest, Scenario } from "./scenarios.js";

export class IdentityError extends Error {
  constructor(readonly problems: string[]) {
    super(`the floor does not answer what toolgate answers:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "IdentityError";
  }
}

export async function fetchBytes(baseUrl: string, request: BenchRequest): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(baseUrl + request.path, { method: request.method, headers: request.headers, body: request.body });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The first byte where two bodies differ, with a little context from each. */
export function firstDifference(floor: Buffer, toolgate: Buffer): string {
  let at = 0;
  while (at < floor.length && at < toolgate.length && floor[at] === toolgate[at]) at++;
  const around = (body: Buffer) => JSON.stringify(body.subarray(Math.max(0, at - 40), at + 40).toString("utf8"));
  return `lengths ${floor.length} / ${toolgate.length}, first difference at byte ${at}: floor ${around(floor)} vs toolgate ${around(toolgate)}`;
}

/** The data set is really there: lists hold the environment's grants, not an agreed-upon nothing. */
function completenessProblems(scenario: Scenario, body: Buffer, subject: Subject): string[] {
  const expected = subject.grantIds.length;
  if (scenario.id === "grant-list") {
    const count = (JSON.parse(body.toString("utf8")) as { values: unknown[] }).values.length;
    if (count !== expected) return [`${scenario.id}: ${count} grant views, expected ${expected}`];
  }
  if (scenario.id === "graphql-nested") {
    const count = (JSON.parse(body.toString("utf8")) as { data: { environment: { activeGrants: unknown[] } } }).data.environment.activeGrants.length;
    if (count !== expected) return [`${scenario.id}: ${count} grants, expected ${expected}`];
  }
  return [];
}

/** Throws an IdentityError listing every request answered differently. */
export async function verifyByteIdentity(
  floorUrl: string,
  toolgateUrl: string,
  scenarios: readonly Scenario[],
  subject: Subject,
): Promise<{ requests: number }> {
  const problems: string[] = [];
  let requests = 0;
  for (const scenario of scenarios) {
    for (const request of scenario.requests(subject)) {
      requests += 1;
      const [floor, toolgate] = await Promise.all([fetchBytes(floorUrl, request), fetchBytes(toolgateUrl, request)]);
      const label = `${scenario.id} ${request.method} ${request.path}`;
      if (floor.status !== 200 || toolgate.status !== 200) {
        problems.push(`${label}: status ${floor.status} (floor) / ${toolgate.status} (toolgate): ${toolgate.body.subarray(0, 300).toString("utf8")}`);
      } else if (!floor.body.equals(toolgate.body)) {
        problems.push(`${label}: ${firstDifference(floor.body, toolgate.body)}`);
      } else {
        problems.push(...completenessProblems(scenario, toolgate.body, subject));
      }
    }
  }
  if (problems.length > 0) throw new IdentityError(problems);
  return { requests };
}
