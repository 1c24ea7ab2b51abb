// Environment: a deployment target that holds grants.
import { ACTIVE_GRANT_WHERE, GRANT_LIST_ORDER } from "../../domain/grants.js";
import { builder } from "../builder.js";

export const EnvironmentType = builder.prismaNode("Environment", {
  description: "A deployment target holding grants of exact tool releases; owned by one account, shareable with others.",
  id: { field: "id" },
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The environment's UUID." }),
    name: t.exposeString("name", { description: "Name, unique per owner." }),
    ownerAccountId: t.expose("ownerAccountId", { type: "UUID", description: "UUID of the owning account." }),
    owner: t.relation("owner", { description: "The owning account." }),
    versionCheck: t.exposeBoolean("versionCheck", {
      description: "When true, only immutable releases may be granted and published content may never change.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the environment was created." }),
    activeGrants: t.relation("grants", {
      description: "Active grants whose release is published or superseded, ordered by release name, version, then creation.",
      query: { where: ACTIVE_GRANT_WHERE, orderBy: GRANT_LIST_ORDER },
    }),
    grants: t.relatedConnection("grants", {
      description: "The active grants of `activeGrants`, in the same order, one page at a time.",
      cursor: "id",
      query: { where: ACTIVE_GRANT_WHERE, orderBy: GRANT_LIST_ORDER },
    }),
  }),
});
