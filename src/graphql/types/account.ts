// Account: a principal that owns environments and tool releases.
import { listAccountReleases } from "../../domain/releases.js";
import { builder } from "../builder.js";
import { AccountPlan, ReleaseLifecycle } from "../enums.js";

export const AccountType = builder.prismaNode("Account", {
  description: "A principal: owns environments and tool releases and authenticates with API tokens.",
  id: { field: "id" },
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The account's UUID." }),
    name: t.exposeString("name", { description: "Display name." }),
    email: t.exposeString("email", { description: "Unique e-mail address; names the account in ByCoordinates selectors." }),
    plan: t.field({ type: AccountPlan, description: "Plan that sets the account's limits.", resolve: (account) => account.plan as never }),
    admin: t.exposeBoolean("admin", { description: "Administrators bypass every permission check." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the account was created." }),
    toolReleaseList: t.prismaField({
      type: ["ToolRelease"],
      description:
        "Every release this account owns, in every lifecycle unless filtered, ordered by name, version and createdAt. " +
        "Only the account itself and administrators may read it (others get ACCOUNT_NOT_FOUND).",
      args: {
        lifecycle: t.arg({ type: ReleaseLifecycle, required: false, description: "Only releases in this lifecycle." }),
        name: t.arg.string({ required: false, description: "Only releases with exactly this middleware name." }),
      },
      resolve: (query, account, args, ctx) =>
        listAccountReleases(ctx.db, ctx.actor(), account.id, { lifecycle: args.lifecycle ?? undefined, name: args.name ?? undefined }, query),
    }),
  }),
});
