// `me`: the authenticated account.
import { builder } from "../builder.js";

builder.queryField("me", (t) =>
  t.prismaField({
    type: "Account",
    description: "The account the API token belongs to.",
    resolve: (query, _root, _args, ctx) => ctx.db.account.findUniqueOrThrow({ ...query, where: { id: ctx.actor().id } }),
  }),
);
