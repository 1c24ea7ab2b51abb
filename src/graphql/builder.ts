// The Pothos schema builder: plugins, context and scalars are declared once here.
import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import { DateTimeResolver, JSONResolver, UUIDResolver } from "graphql-scalars";
import type { Database } from "../db/client.js";
import { getDatamodel } from "../db/generated/pothos-types.js";
import type PrismaTypes from "../db/generated/pothos-types.js";
import type { Context } from "./context.js";

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx: Context): Database => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
    defaultConnectionSize: 50,
    maxConnectionSize: 500,
  },
  relay: {
    idFieldName: "nodeId",
    clientMutationId: "omit",
    cursorType: "String",
    nodesOnConnection: true,
  },
});

builder.addScalarType("UUID", UUIDResolver);
builder.addScalarType("DateTime", DateTimeResolver);
builder.addScalarType("JSON", JSONResolver);

builder.queryType({ description: "Read the registry: accounts, environments, tool releases and grants." });
builder.mutationType({ description: "Every state transition of the registry, one mutation each." });
