// Management: accounts, API tokens, environments and sharing.
import { findFirstPlanned } from "../../db/client.js";
import { createAccount, findAccount, issueToken, revokeToken, type IssuedToken } from "../../domain/accounts.js";
import { acceptEnvironmentShare, createEnvironment, findEnvironment, shareEnvironment } from "../../domain/environments.js";
import { canSeeAccount, visibleEnvironmentsWhere } from "../../domain/permissions/index.js";
import { builder } from "../builder.js";
import { CappedList, firstOfCappedList, LIST_CAP } from "../capped-lists.js";
import { AccountPlan, EnvironmentRole } from "../enums.js";
import { AccountType } from "./account.js";
import { EnvironmentType } from "./environment.js";

const CreateAccountInput = builder.inputType("CreateAccountInput", {
  description: "A new account.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Display name." }),
    email: t.string({ required: true, description: "Unique e-mail address." }),
    plan: t.field({ type: AccountPlan, required: false, description: "Defaults to FREE." }),
    admin: t.boolean({ required: false, description: "Grant administrator rights. Defaults to false." }),
  }),
});

const CreateApiTokenInput = builder.inputType("CreateApiTokenInput", {
  description: "A new API token.",
  fields: (t) => ({
    accountId: t.field({ type: "UUID", required: true, description: "Account the token authenticates as." }),
    name: t.string({ required: true, description: "What the token is for." }),
    expiresAt: t.field({ type: "DateTime", required: false, description: "Expiry; never when omitted." }),
  }),
});

const CreateEnvironmentInput = builder.inputType("CreateEnvironmentInput", {
  description: "A new environment.",
  fields: (t) => ({
    accountId: t.field({ type: "UUID", required: true, description: "Owning account." }),
    name: t.string({ required: true, description: "Name, unique per owner." }),
    versionCheck: t.boolean({ required: false, description: "Only immutable releases may be granted. Defaults to false." }),
  }),
});

const ShareEnvironmentInput = builder.inputType("ShareEnvironmentInput", {
  description: "Who to share an environment with, and how.",
  fields: (t) => ({
    environmentId: t.field({ type: "UUID", required: true, description: "Environment to share." }),
    accountId: t.field({ type: "UUID", required: true, description: "Account to share it with." }),
    role: t.field({ type: EnvironmentRole, required: true, description: "VIEWER or DEPLOYER." }),
  }),
});

const ApiTokenType = builder.prismaNode("ApiToken", {
  description: "An API token. Its secret is only ever shown by createApiToken; `node(id:)` finds it for its account and administrators.",
  id: { field: "id" },
  nullable: true,
  // Never the secret's hash: no field shows it, and no query of a token loads it.
  select: { id: true, accountId: true, name: true, createdAt: true, expiresAt: true, revokedAt: true },
  fields: (t) => ({
    uuid: t.expose("id", { type: "UUID", description: "The token's UUID: what `revokeApiToken(id:)` takes." }),
    name: t.exposeString("name", { description: "What the token is for." }),
    accountId: t.expose("accountId", { type: "UUID", description: "Account it authenticates as." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was issued." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", nullable: true, description: "When it expires, if ever." }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true, description: "When it was revoked, if it was." }),
  }),
});

const IssuedTokenType = builder.objectRef<IssuedToken>("IssuedApiToken").implement({
  description: "A newly issued token with its one-time secret.",
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "The bearer secret. Shown once; store it now." }),
    token: t.field({ type: ApiTokenType, description: "The stored token.", resolve: (issued) => issued.token }),
  }),
});

const EnvironmentShareType = builder.prismaObject("EnvironmentShare", {
  description: "Another account's access to an environment: an offer until that account accepts it (`acceptEnvironmentShare`), then a share.",
  fields: (t) => ({
    environmentId: t.expose("environmentId", { type: "UUID", description: "Shared environment." }),
    accountId: t.expose("accountId", { type: "UUID", description: "Account it is shared with." }),
    role: t.field({ type: EnvironmentRole, description: "VIEWER or DEPLOYER.", resolve: (share) => share.role as never }),
    acceptedAt: t.expose("acceptedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the account accepted it; null while it is an offer, which gives no access.",
    }),
    // Resolved by id, not as a relation: an owner's answer to an id that names no account is not stored.
    environment: t.field({
      type: EnvironmentType,
      nullable: true,
      description: "The shared environment; null unless you may see it (an offer shows it only once accepted).",
      resolve: (share, _args, ctx) => ctx.db.environment.findFirst({ where: { id: share.environmentId, ...visibleEnvironmentsWhere(ctx.actor()) } }),
    }),
    // Sharing takes any account's UUID, so the share must not reveal whose it is: an owner learns
    // the id they typed, not the account's e-mail, name, plan or admin flag.
    account: t.field({
      type: AccountType,
      nullable: true,
      description: "The account it is shared with; null unless you may see that account (yourself; administrators: any).",
      authScopes: (share) => ({ accountVisible: share.accountId }),
      unauthorizedResolver: () => null,
      resolve: (share, _args, ctx) => ctx.db.account.findUnique({ where: { id: share.accountId } }),
    }),
  }),
});

const SHARE_OFFERS = new CappedList("environmentShareOffers");

builder.objectField(AccountType, "environmentShareOffers", (t) =>
  t.field({
    type: [EnvironmentShareType],
    description:
      "Shares offered to this account that it has not accepted yet, oldest first (accept one with `acceptEnvironmentShare`): " +
      `the first \`first\` of them, at most ${LIST_CAP}; accepting some shows the next. ` +
      "Only the account itself and administrators see them; for anyone else the list is empty.",
    args: { first: t.arg.int(firstOfCappedList("offers")) },
    resolve: (account, args, ctx) => {
      const take = SHARE_OFFERS.take(args.first);
      if (!canSeeAccount(ctx.actor(), account.id)) return [];
      return ctx.db.environmentShare.findMany({
        where: { accountId: account.id, acceptedAt: null },
        orderBy: [{ createdAt: "asc" }, { environmentId: "asc" }],
        take,
      });
    },
  }),
);

builder.queryFields((t) => ({
  account: t.prismaField({
    type: "Account",
    description: "An account: your own, or any for administrators.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The account's `uuid` (not its global `id`)." }) },
    resolve: (query, _root, args, ctx) => findAccount(ctx.actor(), args.id, (where) => ctx.db.account.findUnique({ ...query, where })),
  }),
  environment: t.prismaField({
    type: "Environment",
    description: "An environment you own, were shared, or (administrators) any.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The environment's `uuid` (not its global `id`)." }) },
    resolve: (query, _root, args, ctx) => findEnvironment(ctx.actor(), args.id, (where) => findFirstPlanned(ctx.db, "environment", { ...query, where })),
  }),
}));

builder.mutationFields((t) => ({
  // Plain fields, not prismaField: the write returns its row; what a client selects of it is loaded afterwards.
  createAccount: t.field({
    type: AccountType,
    nullable: false,
    description: "Create an account (administrators only).",
    args: { input: t.arg({ type: CreateAccountInput, required: true, description: "What to create." }) },
    resolve: (_root, { input }, ctx) =>
      createAccount(ctx.db, ctx.actor(), { name: input.name, email: input.email, plan: input.plan ?? undefined, admin: input.admin ?? undefined }),
  }),
  createApiToken: t.field({
    type: IssuedTokenType,
    description: "Issue an API token for yourself (or, as administrator, for anyone). The secret is returned once.",
    args: { input: t.arg({ type: CreateApiTokenInput, required: true, description: "What to create." }) },
    resolve: (_root, { input }, ctx) => issueToken(ctx.db, ctx.actor(), input),
  }),
  // A plain field: the revoked row holds every field ApiToken exposes, so there is no selection to load.
  revokeApiToken: t.field({
    type: ApiTokenType,
    description: "Revoke one of your tokens (administrators: any). Idempotent.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The token's `uuid`." }) },
    resolve: (_root, args, ctx) => revokeToken(ctx.db, ctx.actor(), args.id),
  }),
  createEnvironment: t.field({
    type: EnvironmentType,
    nullable: false,
    description: "Create an environment for yourself (administrators: for anyone). Limited per plan.",
    args: { input: t.arg({ type: CreateEnvironmentInput, required: true, description: "What to create." }) },
    resolve: (_root, { input }, ctx) =>
      createEnvironment(ctx.db, ctx.actor(), { accountId: input.accountId, name: input.name, versionCheck: input.versionCheck ?? undefined }),
  }),
  shareEnvironment: t.field({
    type: EnvironmentShareType,
    description:
      "Offer another account a share of an environment you own, as VIEWER or DEPLOYER; it gives access once that account accepts it " +
      "(administrators share at once). The answer is the same whether or not the id names an account. Sharing again changes the role.",
    args: { input: t.arg({ type: ShareEnvironmentInput, required: true, description: "Environment, account and role." }) },
    resolve: (_root, { input }, ctx) => shareEnvironment(ctx.db, ctx.actor(), input),
  }),
  acceptEnvironmentShare: t.field({
    type: EnvironmentShareType,
    description: "Accept the share of an environment offered to you: from now on you have its role. Accepting again changes nothing.",
    args: { environmentId: t.arg({ type: "UUID", required: true, description: "The offered environment's `uuid`." }) },
    resolve: (_root, args, ctx) => acceptEnvironmentShare(ctx.db, ctx.actor(), args.environmentId),
  }),
}));
