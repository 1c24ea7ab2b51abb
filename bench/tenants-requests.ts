// The many-tenant read mix: a long, deterministic list of requests, each read of a key by its own
// account's token, keys chosen by Zipf's law (s = 1) over every key of their kind, in a scrambled
// popularity order so that the popular keys are spread over the accounts. The load generator sends
// the list in order, shared by all connections, and starts over at its end.
import { NESTED_GRAPHQL_QUERY, type BenchRequest } from "./scenarios.js";
import type { TenantsSeed } from "./tenants-dataset.js";

export const TENANT_READ_MIX = [
  { kind: "grant-view", share: 0.35 },
  { kind: "release", share: 0.3 },
  { kind: "graphql-nested", share: 0.25 },
  { kind: "grant-list", share: 0.1 },
] as const;

export type TenantReadKind = (typeof TENANT_READ_MIX)[number]["kind"];

export interface TenantRequest extends BenchRequest {
  kind: TenantReadKind;
}

/** mulberry32: a small deterministic PRNG, uniform on [0, 1). */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Draws items with probability proportional to 1 / rank (Zipf, s = 1), ranks in a shuffled order. */
export function zipf<T>(items: readonly T[], random: () => number, s = 1): () => T {
  const ranked = shuffled(items, random);
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= ranked.length; rank++) cumulative.push((sum += 1 / rank ** s));
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return ranked[low]!;
  };
}

const bearer = (seed: TenantsSeed, account: number) => ({ authorization: `Bearer ${seed.accounts[account]!.token}` });

export function nestedRead(seed: TenantsSeed, environment: { id: string; account: number }): TenantRequest {
  return {
    kind: "graphql-nested",
    method: "POST",
    path: "/graphql",
    headers: { ...bearer(seed, environment.account), "content-type": "application/json" },
    body: JSON.stringify({ query: NESTED_GRAPHQL_QUERY, variables: { id: environment.id } }),
  };
}

/** `count` requests of the mix, the same list for the same seed data and `seedValue`. */
export function tenantRequests(seed: TenantsSeed, count: number, seedValue = 10): TenantRequest[] {
  const random = prng(seedValue);
  const grant = zipf(seed.keys.grants, random);
  const release = zipf(seed.keys.releases, random);
  const environment = zipf(seed.keys.environments, random);
  const listed = zipf(seed.keys.environments, random);
  const requests: TenantRequest[] = [];
  for (let i = 0; i < count; i++) {
    let pick = random();
    const kind = TENANT_READ_MIX.find((entry) => (pick -= entry.share) < 0)?.kind ?? "grant-list";
    if (kind === "grant-view") {
      const key = grant();
      requests.push({ kind, method: "GET", path: `/v1/environment-tool-middleware-grants/${key.id}`, headers: bearer(seed, key.account) });
    } else if (kind === "release") {
      const key = release();
      requests.push({ kind, method: "GET", path: `/v1/tool-releases/${key.id}`, headers: bearer(seed, key.account) });
    } else if (kind === "graphql-nested") {
      requests.push(nestedRead(seed, environment()));
    } else {
      const key = listed();
      requests.push({ kind, method: "GET", path: `/v1/envs/${key.id}/tool-middlewares`, headers: bearer(seed, key.account) });
    }
  }
  return requests;
}

/** The nested read of every environment once, in a scrambled order: nothing is read twice in a row. */
export function distinctNestedReads(seed: TenantsSeed, seedValue = 11): TenantRequest[] {
  return shuffled(seed.keys.environments, prng(seedValue)).map((environment) => nestedRead(seed, environment));
}

/**
 * A sample for the identity check: the first `first` requests of the list, then at least `perKind`
 * of each kind from the rest (the grant list and nested read are the rarer, larger answers).
 */
export function identitySample(requests: readonly TenantRequest[], first = 200, perKind = 20): TenantRequest[] {
  const sample = requests.slice(0, first);
  for (const { kind } of TENANT_READ_MIX) {
    const have = sample.filter((request) => request.kind === kind).length;
    sample.push(
      ...requests
        .slice(first)
        .filter((request) => request.kind === kind)
        .slice(0, Math.max(0, perKind - have)),
    );
  }
  return sample;
}
