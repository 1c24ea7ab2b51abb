// Account: a principal that owns environments and tool releases. Anyone who can see a grant sees
// its release's owner, so beyond id, name and e-mail the account (its plan, admin flag, creation
// time and lists) answers only the account itself and administrators.
import type { Prisma } from "../../db/client.js";
import type { ToolRelease } from "../../db/generated/sqlite/client.js";
import { holdsNul } from "../../db/text.js";
import { canSeeAccount, environmentsListedUnderAccountWhere, visibleReleasesWhere } from "../../domain/permissions/index.js";
import { effectivePlan } from "../../domain/plans.js";
import type { ReleaseLifecycle as ReleaseLifecycleValue } from "../../domain/releases.js";
import { builder } from "../builder.js";
import { ownProperty } from "../own-property.js";
import { CappedList, firstOfCappedList, LIST_CAP } from "../capped-lists.js";
import type { Context } from "../context.js";
import { AccountPlan, ReleaseLifecycle } from "../enums.js";
import { PagedList } from "../pagination.js";
import { ENVIRONMENT_PAGES, EnvironmentConnection, EnvironmentType } from "./environment.js";
import { ToolReleaseConnection, ToolReleaseType } from "./tool-release.js";

/** Release lists: by name, then version, then creation (the id breaks ties). */
const RELEASE_LIST_ORDER = [{ name: "asc" }, { version: "asc" }, { createdAt: "asc" }, { id: "asc" }] satisfies Prisma.ToolReleaseOrderByWithRelationInput[];
const RELEASE_PAGES = new PagedList<ToolRelease>("ToolRelease", RELEASE_LIST_ORDER);
const RELEASE_LIST = new CappedList("toolReleaseList", "toolReleases");

interface ReleaseFilter {
  lifecycle?: string | null | undefined;
  name?: string | null | undefined;
}

/** The account's releases the viewer may list (none of another account's), with the list filters. */
const listableReleases = (filter: ReleaseFilter, context: Context) => ({
  where: {
    ...visibleReleasesWhere(context.actor()),
    lifecycle: (filter.lifecycle as ReleaseLifecycleValue | null | undefined) ?? undefined,
    // No release name holds NUL (names are kebab-case), and PostgreSQL could not compare one.
    name: filter.name == null ? undefined : holdsNul(filter.name) ? { in: [] } : filter.name,
  },
  orderBy: RELEASE_LIST_ORDER,
});

export const AccountType = builder.prismaNode("Account", {
  description: "A principal: owns environments and tool releases and authenticates with API tokens.",
  id: { field: "id" },
  nullable: true,
  // Select mode, identifying columns with the type (see ToolRelease).
  select: { id: true, name: true },
  fields: (t) => ({
    uuid: t.field({
      type: "UUID",
      description: "The account's UUID: what `account(id:)`, `accountId` arguments and REST take.",
      resolve: (account) => account.id,
    }),
    name: t.string({ description: "Display name.", resolve: ownProperty("name") }),
    email: t.exposeString("email", { description: "Unique e-mail address; names the account in BY_COORDINATES selectors." }),
    // What an account shows beyond id, name and e-mail (what an owner reached through a grant or a
    // release shows everyone) is the account's own business and its administrators'.
    plan: t.field({
      type: AccountPlan,
      nullable: true,
      description: "Plan that sets the account's limits. Null unless you are the account or an administrator.",
      select: { plan: true },
      resolve: (account, _args, context) => (canSeeAccount(context.actor(), account.id) ? effectivePlan(account.plan) : null),
    }),
    admin: t.boolean({
      nullable: true,
      description: "Administrators bypass every permission check. Null unless you are the account or an administrator.",
      select: { admin: true },
      resolve: (account, _args, context) => (canSeeAccount(context.actor(), account.id) ? account.admin : null),
    }),
    createdAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the account was created. Null unless you are the account or an administrator.",
      select: { createdAt: true },
      resolve: (account, _args, context) => (canSeeAccount(context.actor(), account.id) ? account.createdAt : null),
    }),
    toolReleaseList: t.field({
      type: [ToolReleaseType],
      description:
        "The releases this account owns, in every lifecycle unless filtered, ordered by name, version and createdAt: " +
        `the first \`first\` of them, at most ${LIST_CAP}. \`toolReleases\` pages through any number. ` +
        "Only the account itself and administrators may read it (others get ACCOUNT_NOT_FOUND).",
      deprecationReason: `Holds at most ${LIST_CAP} releases; use \`toolReleases\`, which pages through any number.`,
      args: {
        lifecycle: t.arg({ type: ReleaseLifecycle, required: false, description: "Only releases in this lifecycle." }),
        name: t.arg.string({ required: false, description: "Only releases with exactly this middleware name." }),
        first: t.arg.int(firstOfCappedList("releases")),
      },
      select: (args, ctx, nestedSelection) => RELEASE_LIST.relationSelection("toolReleases", args.first, listableReleases(args, ctx), nestedSelection),
      resolve: (account, args) => RELEASE_LIST.rowsOf<ToolRelease>(account, "toolReleases", args.first),
      // Another account's list is ACCOUNT_NOT_FOUND, not empty, as REST's list of its releases is 404.
      authScopes: (account) => ({ accountVisible: account.id }),
    }),
    toolReleases: t.connection(
      {
        type: ToolReleaseType,
        description:
          "The releases this account owns, in every lifecycle unless filtered, ordered by name, version and createdAt, one page at a time. " +
          "Only the account itself and administrators see them; for anyone else (an owner reached through a grant) the connection is empty.",
        args: {
          lifecycle: t.arg({ type: ReleaseLifecycle, required: false, description: "Only releases in this lifecycle." }),
          name: t.arg.string({ required: false, description: "Only releases with exactly this middleware name." }),
        },
        select: (args, ctx, nestedSelection) =>
          RELEASE_PAGES.relationSelection("toolReleases", "ToolRelease", args, listableReleases(args, ctx).where, nestedSelection),
        resolve: (account, args) => RELEASE_PAGES.relationConnection(account, "toolReleases", args),
      },
      ToolReleaseConnection,
    ),
    environments: t.connection(
      {
        type: EnvironmentType,
        description:
          "The environments this account owns, ordered by name, one page at a time (`Query.environments` adds the ones shared with you). " +
          "Only the account itself and administrators see them; for anyone else the connection is empty.",
        select: (args, ctx, nestedSelection) =>
          ENVIRONMENT_PAGES.relationSelection("environments", "Environment", args, environmentsListedUnderAccountWhere(ctx.actor()), nestedSelection),
        resolve: (account, args) => ENVIRONMENT_PAGES.relationConnection(account, "environments", args),
      },
      EnvironmentConnection,
    ),
  }),
});
