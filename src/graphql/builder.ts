// The Pothos schema builder: plugins, context and scalars are declared once here.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ComplexityPlugin from "@pothos/plugin-complexity";
import RelayPlugin, { resolveNodes } from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { DateTimeResolver, JSONResolver, UUIDResolver } from "graphql-scalars";
import type { Database } from "../db/client.js";
import { getDatamodel } from "../db/generated/pothos-types.js";
import type PrismaTypes from "../db/generated/pothos-types.js";
import { authScopes, unauthorizedError, type AuthScopes } from "./auth-scopes.js";
import { COMPLEXITY_OPTIONS } from "./complexity.js";
import type { Context } from "./context.js";
import { assertListArgumentWithinLimit } from "./list-limits.js";
import { loadedFieldsPlugin } from "./loaded-fields.js";
import { PAGE_SIZE } from "./pagination.js";
import { decodeGlobalIdLeniently, malformedGlobalIdError } from "./global-ids.js";
import { visibleGlobalIds } from "./node-visibility.js";

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: AuthScopes;
  DefaultFieldNullability: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  // Scope-auth first, so its checks run before any other plugin's resolver wrapping; loaded columns
  // around the Prisma plugin's wrapping (loaded-fields.ts).
  plugins: [ScopeAuthPlugin, loadedFieldsPlugin, PrismaPlugin, RelayPlugin, ComplexityPlugin],
  scopeAuth: { authScopes, treatErrorsAsUnauthorized: true, unauthorizedError },
  complexity: COMPLEXITY_OPTIONS,
  defaultFieldNullability: false,
  prisma: {
    client: (ctx: Context): Database => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    // A resolver that loads what no field uses is a bug: the test suite (NODE_ENV=test) fails on it.
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : process.env.NODE_ENV === "test" ? "error" : "warn",
    // Every connection pages through pagination.ts; these only keep Pothos's own helpers in step.
    defaultConnectionSize: PAGE_SIZE.default,
    maxConnectionSize: PAGE_SIZE.max,
  },
  relay: {
    decodeGlobalID: decodeGlobalIdLeniently,
    clientMutationId: "omit",
    cursorType: "String",
    nodesOnConnection: { description: "The nodes of the page, without their edges." },
    idFieldOptions: { description: "Relay global object id; pass it to `node`. The plain UUID, which arguments take, is `uuid`." },
    nodeTypeOptions: { description: "An object with a Relay global id, fetchable with `node(id:)`." },
    pageInfoTypeOptions: { description: "Where a connection page sits in the whole list." },
    nodeQueryOptions: {
      description: "Fetch any object by its Relay global id (`id`); null when it does not exist or you may not see it.",
      args: { id: { description: "A Relay global id (the `id` field of a Node, not its `uuid`)." } },
      resolve: async (_root, args, context, info): Promise<unknown> => {
        const malformed = malformedGlobalIdError("id", args.id);
        if (malformed) throw malformed;
        return (await resolveNodes(builder, context, info, await visibleGlobalIds(context, [args.id])))[0];
      },
    },
    nodesQueryOptions: {
      description: "Fetch objects by their Relay global ids; null entries for the ones you may not see.",
      args: { ids: { description: "Relay global ids (the `id` fields of Nodes, not their `uuid`)." } },
      resolve: async (_root, args, context, info): Promise<unknown[]> => {
        assertListArgumentWithinLimit("nodes", "ids", args.ids);
        const nodes = await resolveNodes(builder, context, info, await visibleGlobalIds(context, args.ids));
        // A malformed id is an error at its own entry (["nodes", i]); GraphQL reports a returned Error there.
        return nodes.map((node, index) => malformedGlobalIdError(`ids[${index}]`, args.ids[index]!) ?? node);
      },
    },
    cursorFieldOptions: { description: "Opaque cursor of this edge; pass it as `after` or `before`." },
    nodeFieldOptions: { description: "The object at this edge." },
    edgesFieldOptions: { description: "The edges of the page." },
    pageInfoFieldOptions: { description: "Paging information." },
    hasNextPageFieldOptions: { description: "Whether more items follow this page." },
    hasPreviousPageFieldOptions: { description: "Whether items precede this page." },
    startCursorFieldOptions: { description: "Cursor of the first edge of the page." },
    endCursorFieldOptions: { description: "Cursor of the last edge of the page; pass it as `after` for the next page." },
    firstArgOptions: { description: "The first n items between `after` and `before` (50 when neither `first` nor `last` is given; at most 500)." },
    lastArgOptions: { description: "The last n items between `after` and `before`, of the first `first` if given (at most 500)." },
    afterArgOptions: { description: "Items after this cursor's place; it keeps its place when its item leaves the list." },
    beforeArgOptions: { description: "Items before this cursor's place; it keeps its place when its item leaves the list." },
    defaultConnectionTypeOptions: { description: "A page of a list, Relay style." },
    defaultEdgeTypeOptions: { description: "An item of a list page with its cursor." },
  },
});

builder.addScalarType("UUID", UUIDResolver);
builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);

builder.queryType({ description: "Read the registry: accounts, environments, tool releases and grants." });
builder.mutationType({ description: "Every state transition of the registry, one mutation each." });
