// A compiled document hands each resolver a response path of new objects; sharedPath gives every
// resolver of a request the same link objects for the same path, each link the `prev` of the
// paths below it, as graphql-js's are (what the Prisma plugin's selection mappings rely on).
import type { GraphQLResolveInfo } from "graphql";
import { describe, expect, it } from "vitest";
import { FRESH_PATHS, responsePaths, sharedPath, withSharedPaths } from "../../src/graphql/shared-paths.js";

type Path = GraphQLResolveInfo["path"];

/** A path of fresh objects, as graphql-jit builds one for each resolver call. */
function freshPath(...keys: Array<string | number>): Path {
  return keys.reduce<Path | undefined>((prev, key) => ({ prev, key, typename: undefined }), undefined)!;
}

describe("sharedPath", () => {
  it("answers one link per path within a request, each the prev of the links below it", () => {
    const request = responsePaths();
    const owner = sharedPath(request, freshPath("environment", "grants", 3, "release", "owner"));
    const release = sharedPath(request, freshPath("environment", "grants", 3, "release"));
    expect(owner.prev).toBe(release);
    expect(sharedPath(request, freshPath("environment", "grants", 3, "release", "owner"))).toBe(owner);
    expect(sharedPath(request, freshPath("environment", "grants", 4, "release"))).not.toBe(release);
    expect(release.prev?.prev).toBe(sharedPath(request, freshPath("environment", "grants")));
    expect([owner.key, release.key, release.prev?.key]).toEqual(["owner", "release", 3]);
  });

  it("shares nothing between requests", () => {
    const path = freshPath("me", "environments");
    expect(sharedPath(responsePaths(), path)).not.toBe(sharedPath(responsePaths(), path));
  });

  it("hands a compiled document's resolvers the shared path, graphql-js's resolve info untouched", () => {
    const seen: GraphQLResolveInfo[] = [];
    const resolver = withSharedPaths((_source: unknown, _args: unknown, _context: object, info: GraphQLResolveInfo) => seen.push(info));
    const request = { responsePaths: responsePaths() };
    const graphqlJs = { path: freshPath("environment", "grants") } as GraphQLResolveInfo;
    resolver(null, {}, request, graphqlJs);
    resolver(null, {}, request, { ...FRESH_PATHS, path: freshPath("environment", "grants") } as unknown as GraphQLResolveInfo);
    resolver(null, {}, request, { ...FRESH_PATHS, path: freshPath("environment", "grants") } as unknown as GraphQLResolveInfo);
    expect(seen[0]).toBe(graphqlJs);
    expect(seen[1]!.path).toBe(seen[2]!.path);
    expect(seen[1]!.path).toBe(sharedPath(request.responsePaths, freshPath("environment", "grants")));
  });
});
