// Account: a principal that owns environments and tool releases.
import { builder } from "../builder.js";
import { AccountPlan } from "../enums.js";

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
  }),
});
