// Environment: a deployment target that holds grants.
import type { Prisma } from "../../db/client.js";
import type { Environment, Grant } from "../../db/generated/sqlite/client.js";
import { GRANT_LIST_ORDER } from "../../domain/grants.js";
import { environmentGrantsWhere, visibleEnvironmentsWhere } from "../../domain/permissions/index.js";
import { builder } from "../builder.js";
import { ownProperty } from "../own-property.js";
import { CappedList, firstOfCappedList, LIST_CAP } from "../capped-lists.js";
import { PagedList } from "../pagination.js";
import { GrantConnection, GrantType } from "./grant.js";

/** Environment lists: by name, the id making the order total for cursors. */
const ENVIRONMENT_LIST_ORDER = [{ name: "asc" }, { id: "asc" }] satisfies Prisma.EnvironmentOrderByWithRelationInput[];
export const ENVIRONMENT_PAGES = new PagedList<Environment>("Environment", ENVIRONMENT_LIST_ORDER);
const GRANT_PAGES = new PagedList<Grant>("Grant", GRANT_LIST_ORDER);
const ACTIVE_GRANTS = new CappedList("activeGrants", "grants");

interface GrantFilter {
  includeDeleted?: boolean | null | undefined;
  name?: string | null | undefined;
}

/** The grants the policy lists (deleted ones too on request), optionally of one release name. */
function grantFilterWhere(filter: GrantFilter): Prisma.GrantWhereInput {
  const listed = environmentGrantsWhere(filter.includeDeleted ?? false);
  return filter.name == null ? listed : { AND: [listed, { release: { name: filter.name } }] };
}

export const EnvironmentType = builder.prismaNode("Environment", {
  description: "A deployment target holding grants of exact tool releases; owned by one account, shareable with others.",
  id: { field: "id" },
  nullable: true,
  // Select mode, identifying columns with the type (see ToolRelease); the owner is also what the
  // deleted-grants check reads.
  select: { id: true, ownerAccountId: true, name: true },
  fields: (t) => ({
    uuid: t.field({
      type: "UUID",
      description: "The environment's UUID: what `environment(id:)`, `environmentId` arguments and REST take.",
      resolve: (environment) => environment.id,
    }),
    name: t.string({ description: "Name, unique per owner.", resolve: ownProperty("name") }),
    ownerAccountId: t.field({ type: "UUID", description: "UUID of the owning account.", resolve: (environment) => environment.ownerAccountId }),
    owner: t.relation("owner", { description: "The owning account." }),
    versionCheck: t.exposeBoolean("versionCheck", {
      description: "When true, only immutable releases may be granted and published content may never change.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the environment was created." }),
    activeGrants: t.field({
      type: [GrantType],
      description:
        "Active grants whose release is published or superseded, ordered by release name, version, then creation: " +
        `the first \`first\` of them, at most ${LIST_CAP}. \`grants\` pages through any number.`,
      deprecationReason: `Holds at most ${LIST_CAP} grants; use \`grants\`, which pages through any number.`,
      args: { first: t.arg.int(firstOfCappedList("grants")) },
      select: (args, _ctx, nestedSelection) =>
        ACTIVE_GRANTS.relationSelection("grants", args.first, { where: environmentGrantsWhere(false), orderBy: GRANT_LIST_ORDER }, nestedSelection),
      resolve: (environment, args) => ACTIVE_GRANTS.rowsOf<Grant>(environment, "grants", args.first),
    }),
    grants: t.connection(
      {
        type: GrantType,
        description: "The grants of `activeGrants`, in the same order, one page at a time. Grants of a de-published release are never listed.",
        args: {
          includeDeleted: t.arg.boolean({
            required: false,
            description: "Also list deleted grants (lifecycle DELETED). Owners and administrators only; anyone else gets AUTH_FORBIDDEN.",
          }),
          name: t.arg.string({ required: false, description: "Only grants of releases with exactly this middleware name." }),
        },
        select: (args, _ctx, nestedSelection) => GRANT_PAGES.relationSelection("grants", "Grant", args, grantFilterWhere(args), nestedSelection),
        resolve: (environment, args) => GRANT_PAGES.relationConnection(environment, "grants", args),
        authScopes: (environment, args) => (args.includeDeleted ? { deletedGrantsReadable: environment } : true),
      },
      GrantConnection,
    ),
  }),
});

/** One connection type for every list of environments (Account.environments, Query.environments). */
export const EnvironmentConnection = builder.connectionObject(
  { type: EnvironmentType, name: "EnvironmentConnection", description: "A page of environments, Relay style." },
  { name: "EnvironmentEdge", description: "An environment on a page, with its cursor." },
);

builder.queryField("environments", (t) =>
  t.connection(
    {
      type: EnvironmentType,
      description:
        "Every environment you can see: the ones you own and the ones shared with you (administrators: all), ordered by name. " +
        "`me.environments` lists only the ones you own.",
      resolve: (_root, args, ctx, info) =>
        ENVIRONMENT_PAGES.resolveRoot(args, ctx, info, {
          nodeType: "Environment",
          where: visibleEnvironmentsWhere(ctx.actor()),
          findMany: (query) => ctx.db.environment.findMany(query as Prisma.EnvironmentFindManyArgs),
        }),
    },
    EnvironmentConnection,
  ),
);
