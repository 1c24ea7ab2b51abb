// The registry a property-based run of the OpenAPI document aims at (openapi-properties.test.ts):
// releases in every lifecycle, active and deleted grants, events and a cursor, built through the
// API and the domain, and the real values (ids, cursors, coordinates, valid publications) mixed in
// with generated ones, which would rarely lead anywhere but a 404.
import fc, { type Arbitrary } from "fast-check";
import { definitionFor } from "../fixtures/definitions/index.js";
import type { Hints } from "./openapi-cases.js";
import type { World } from "./world.js";

/** What the generated requests aim at, besides random values. */
export interface Registry {
  tokens: string[];
  ids: Record<"environmentId" | "grantId" | "releaseId" | "accountId", string[]>;
  eventIds: string[];
  cursors: string[];
  coordinates: { account: string; name: string; version: string }[];
}

/** A registry with releases in every lifecycle, active and deleted grants, events and a cursor. */
export async function seedRegistry(world: World): Promise<Registry> {
  const { owner, stranger, environment } = world;
  const tool = await world.publish(owner, "prop-tool", "1.0.0");
  const pinned = await world.publish(owner, "prop-pinned", "2.0.0", { immutable: true });
  const retired = await world.publish(owner, "prop-retired", "0.9.0");
  const system = await world.publish(owner, "prop-system", "1.0.0", { origin: "protected-system" });
  const foreign = await world.publish(stranger, "prop-foreign", "3.1.0");
  const grant = (releaseId: string) => owner.http.post(`/v1/envs/${environment.id}/tool-middlewares`, { release: { type: "ById", releaseId } });
  const grants = [await grant(tool.id), await grant(pinned.id), await grant(retired.id)].map((answer) => answer.body.grant.id as string);
  await owner.http.delete(`/v1/environment-tool-middleware-grants/${grants[2]}`);
  await owner.http.delete(`/v1/tool-releases/${retired.id}`);
  const strangersEnvironment = await world.environmentOf(stranger);
  const page = await owner.http.get(`/v1/envs/${environment.id}/tool-middlewares?limit=1`);
  const events = await owner.http.get(`/v1/envs/${environment.id}/events?limit=20`);
  const releases = [tool, pinned, retired, system, foreign];
  return {
    tokens: [world.service.adminToken, owner.token, world.deployer.token, world.viewer.token, stranger.token],
    ids: {
      environmentId: [environment.id, strangersEnvironment.id],
      grantId: grants,
      releaseId: releases.map((release) => release.id),
      accountId: [owner, world.deployer, world.viewer, stranger].map((member) => member.account.id),
    },
    eventIds: (events.body.values as { id: string }[]).map((event) => event.id),
    cursors: [page.body.nextCursor as string],
    coordinates: releases.map((release) => ({
      account: (release.ownerAccountId === owner.account.id ? owner : stranger).account.email,
      name: release.name,
      version: release.version,
    })),
  };
}

/** Real values where the generated ones would rarely lead anywhere: ids, cursors, coordinates, valid publications. */
export function hintsOf(registry: Registry): Hints {
  const { ids } = registry;
  const publication = fc
    .record({
      name: fc.constantFrom("prop-tool", "prop-pinned", "prop-fresh"),
      version: fc.oneof(fc.constantFrom("1.0.0", "1.0.1", "2.0.0"), fc.stringMatching(/^[0-9]{1,2}\.[0-9]{1,2}\.[0-9]{1,2}(-[a-z0-9]{1,6})?$/)),
      componentId: fc.uuid(),
      componentRevision: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    })
    .map(({ name, version, componentId, componentRevision }) => ({
      name,
      definition: definitionFor(name, version),
      source: { kind: "component", componentId, componentRevision, componentName: `${name}-component` },
    }));
  const byLocation: [RegExp, Arbitrary<unknown>][] = [
    [/^query\.after$/, fc.constantFrom(...registry.eventIds)],
    [/^query\.cursor$/, fc.constantFrom(...registry.cursors)],
    [/^query\.name$/, fc.constantFrom(...registry.coordinates.map((coordinate) => coordinate.name))],
    [/\.releaseId$/, fc.constantFrom(...ids.releaseId)],
    [/\.deletions\[\]$/, fc.constantFrom(...ids.grantId)],
    [/\.release\.account$/, fc.constantFrom(...registry.coordinates.map((coordinate) => coordinate.account))],
    [/\.release\.name$/, fc.constantFrom(...registry.coordinates.map((coordinate) => coordinate.name))],
    [/\.release\.version$/, fc.constantFrom(...registry.coordinates.map((coordinate) => coordinate.version))],
    [/^body\.publications\[\]$/, publication],
  ];
  return (location) => {
    const pathParameter = /^path\.(\w+)$/.exec(location)?.[1];
    if (pathParameter && pathParameter in ids) return fc.constantFrom(...ids[pathParameter as keyof Registry["ids"]]);
    return byLocation.find(([pattern]) => pattern.test(location))?.[1];
  };
}

/** A path of the document with real ids in its parameters, so the router matches it. */
export const realPath = (pathTemplate: string, registry: Registry) =>
  pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => registry.ids[name as keyof Registry["ids"]]?.[0] ?? "00000000-0000-4000-8000-000000000000");
