// Shared pieces of the reliability suites: racing requests, tallying their outcomes, and the
// fixtures the races need (many releases of one owner, published in one apply).
import { DEFAULT_POSTGRES_SETTINGS } from "../../src/db/connection.js";
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { depublishRelease } from "../../src/domain/releases.js";
import { applyChanges } from "../../src/domain/publications.js";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import type { HttpResult } from "../helpers/http.js";
import type { Member, World } from "../helpers/world.js";

export const CLIENTS = 50;

/**
 * PostgreSQL settings for suites that race CLIENTS requests at one service: waiting for one of the
 * pool's connections may take as long as the writes queued before it, which on a busy machine is
 * several times the default connect timeout. These suites test what the database enforces, not
 * how long a request may queue, so they wait as long as their queue can take.
 */
export const QUEUE_TOLERANT_POSTGRES = { ...DEFAULT_POSTGRES_SETTINGS, connectTimeoutMs: 60_000 };

/** "201", "422 LIMIT_EXCEEDED", …: what a request got, as a string a tally can count. */
export function outcomeOf(result: HttpResult): string {
  if (result.status < 300) return String(result.status);
  const code = result.body?.code ?? result.body?.errors?.[0]?.extensions?.code;
  return `${result.status} ${code}`;
}

/** GraphQL answers 200 with errors for failed mutations on partial results; take the error's status. */
export function graphQLOutcomeOf(result: HttpResult): string {
  const error = result.body?.errors?.[0];
  if (!error) return String(result.status);
  return `${error.extensions?.http?.status ?? result.status} ${error.extensions?.code}`;
}

export function tally(outcomes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/** Every outcome is a success or one of `allowed` (documented 4xx codes); never a 5xx. */
export function expectOnly(outcomes: readonly string[], allowed: readonly string[]): void {
  const unexpected = outcomes.filter((outcome) => !/^2\d\d$/.test(outcome) && !allowed.includes(outcome));
  expect(unexpected, `outcomes: ${JSON.stringify(tally(outcomes))}`).toEqual([]);
}

export const successes = (outcomes: readonly string[]) => outcomes.filter((outcome) => /^2\d\d$/.test(outcome)).length;

/** Starts `count` requests at once (the `make` calls run before any is awaited). */
export function race<T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => make(index)));
}

let sequence = 0;
export const uniqueName = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(++sequence).toString(36)}`;

/** Publishes `count` releases of distinct names for `owner` in one apply, through `environmentId`. */
export async function publishMany(world: World, owner: Member, environmentId: string, count: number): Promise<ToolRelease[]> {
  const prefix = uniqueName("bulk");
  const publications = Array.from({ length: count }, (_, index) => {
    const name = `${prefix}-${index}`;
    return {
      name,
      definition: definitionFor(name, "1.0.0"),
      source: { kind: "component", componentId: randomUUID(), componentRevision: 1, componentName: name },
    };
  });
  const applied = await applyChanges(world.service.db, owner.account, environmentId, { publications, grantReconciliation: { creations: [], deletions: [] } });
  return applied.releases;
}

export async function depublishAll(world: World, owner: Member, releases: readonly ToolRelease[]): Promise<void> {
  for (const release of releases) await depublishRelease(world.service.db, owner.account, release.id);
}
