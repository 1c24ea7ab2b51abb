// Response paths whose links are shared, as graphql-js makes them: the path a field resolves at is
// the `prev` of every path below it. The Prisma plugin's selection mappings are found by walking a
// field's `info.path` up to the link its parent recorded them under, by identity. A compiled
// document (compiled-execution.ts) hands each resolver a path of its own, new objects all the way
// up, so those walks would find nothing and every relation below a list would load on its own
// (the query-count tests). Resolvers that reach the Prisma plugin, when a compiled document calls
// them, get `info` with the path's one shared copy for the request instead.
import type { GraphQLFieldResolver, GraphQLResolveInfo } from "graphql";

type Path = GraphQLResolveInfo["path"];
type Links = Map<string | number, Path>;

/** Per request (its context), the shared link for each (shared parent link, key). */
const requests = new WeakMap<object, { roots: Links; below: WeakMap<Path, Links> }>();

/** `path` as the chain of links shared by every resolver of the request that asks for it. */
export function sharedPath(context: object, path: Path): Path {
  let request = requests.get(context);
  if (!request) requests.set(context, (request = { roots: new Map(), below: new WeakMap() }));
  return shared(request, path);
}

function shared(request: { roots: Links; below: WeakMap<Path, Links> }, path: Path): Path {
  const prev = path.prev === undefined ? undefined : shared(request, path.prev);
  let links = prev === undefined ? request.roots : request.below.get(prev);
  if (!links) request.below.set(prev!, (links = new Map()));
  let link = links.get(path.key);
  if (!link) links.set(path.key, (link = { prev, key: path.key, typename: path.typename }));
  return link;
}

/** What compiled-execution.ts adds to the resolve info of a compiled document, whose paths are not shared. */
export const FRESH_PATHS = { freshPaths: true } as const;

/** `resolver`, called with `info` whose path is the request's shared one (graphql-js's already is). */
export function withSharedPaths<Source, Context extends object, Args>(
  resolver: GraphQLFieldResolver<Source, Context, Args>,
): GraphQLFieldResolver<Source, Context, Args> {
  return (source, args, context, info) =>
    (info as Partial<typeof FRESH_PATHS>).freshPaths
      ? resolver(source, args, context, { ...info, path: sharedPath(context, info.path) })
      : resolver(source, args, context, info);
}
