// Assembles the GraphQL schema from the type modules (each registers itself on the builder).
import { assertValidSchema, lexicographicSortSchema, type GraphQLSchema } from "graphql";
import { builder } from "./builder.js";
import { withoutOwnPropertyResolvers } from "./own-property.js";
import "./types/account.js";
import "./types/environment.js";
import "./types/tool-release.js";
import "./types/grant.js";
import "./types/viewer.js";
import "./types/management.js";
import "./types/grant-operations.js";
import "./types/release-operations.js";
import "./types/publication-operations.js";
import "./types/change-event.js";
import "./types/change-event-subscription.js";
import "./types/webhook.js";

let schema: GraphQLSchema | undefined;

export function buildSchema(): GraphQLSchema {
  if (!schema) {
    schema = withoutOwnPropertyResolvers(lexicographicSortSchema(builder.toSchema()));
    assertValidSchema(schema);
  }
  return schema;
}
