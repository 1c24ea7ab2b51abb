// Response paths whose links are shared, as graphql-js makes them: the path a field resolves at is
// the `prev` of every path below it. The Prisma plugin's selection mappings are found by walking a
// field's `info.path` up to the link its parent recorded them under, by identity. A compiled
// document (compiled-execution.ts) hands each resolver a path of its own, new objects all the way
// up, so those walks would find nothing and every relation below a list would load on its own
// (the query-count tests). Resolvers that reach the Prisma plugin, when a compiled document calls
// them, get `info` with the path's one shared copy instead, from the request's context.
import type { GraphQLFieldResolver, GraphQLResolveInfo } from "graphql";

type Path = GraphQLResolveInfo["path"];
type Links = Map<string | number, Path>;

/** A request's shared links, each by its (shared) parent link and key: the context's `responsePaths`. */
export interface ResponsePaths {
  roots: Links;
  below: WeakMap<Path, Links>;
}

export function responsePaths(): ResponsePaths {
  return { roots: new Map(), below: new WeakMap() };
}

/** `path` as the chain of links shared by every resolver of the request that asks for it. */
export function sharedPath(paths: ResponsePaths, path: Path): Path {
  const prev = path.prev === undefined ? undefined : sharedPath(paths, path.prev);
  let links = prev === undefined ? paths.roots : paths.below.get(prev);
  if (!links) paths.below.set(prev!, (links = new Map()));
  let link = links.get(path.key);
  if (!link) links.set(path.key, (link = { prev, key: path.key, typename: path.typename }));
  return link;
}

/** What compiled-execution.ts adds to the resolve info of a compiled document, whose paths are not shared. */
export const FRESH_PATHS = { freshPaths: true } as const;

/** `info` whose path is the request's shared one (graphql-js's already is). */
export function onSharedPath(context: object, info: GraphQLResolveInfo): GraphQLResolveInfo {
  // toolgate's Context (context.ts) always has them; the plugin's types do not know that.
  const paths = (context as Partial<{ responsePaths: ResponsePaths }>).responsePaths;
  return paths && (info as Partial<typeof FRESH_PATHS>).freshPaths ? { ...info, path: sharedPath(paths, info.path) } : info;
}

/** `resolver`, called with `info` whose path is the request's shared one. */
export function withSharedPaths<Source, Context extends object, Args>(
  resolver: GraphQLFieldResolver<Source, Context, Args>,
): GraphQLFieldResolver<Source, Context, Args> {
  return (source, args, context, info) => resolver(source, args, context, onSharedPath(context, info));
}
