// Management: accounts, API tokens, environments and sharing.
import { createAccount, findAccount, issueToken, revokeToken, type IssuedToken } from "../../domain/accounts.js";
import { createEnvironment, findEnvironment, shareEnvironment } from "../../domain/environments.js";
import { builder } from "../builder.js";
import { AccountPlan, EnvironmentRole } from "../enums.js";
import { AccountType } from "./account.js";

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

export const ApiTokenType = builder.prismaNode("ApiToken", {
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
  description: "Another account's access to an environment.",
  fields: (t) => ({
    environmentId: t.expose("environmentId", { type: "UUID", description: "Shared environment." }),
    accountId: t.expose("accountId", { type: "UUID", description: "Account it is shared with." }),
    role: t.field({ type: EnvironmentRole, description: "VIEWER or DEPLOYER.", resolve: (share) => share.role as never }),
    environment: t.relation("environment", { description: "The shared environment." }),
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
    resolve: (query, _root, args, ctx) => findEnvironment(ctx.actor(), args.id, (where) => ctx.db.environment.findFirst({ ...query, where })),
  }),
}));

builder.mutationFields((t) => ({
  createAccount: t.prismaField({
    type: "Account",
    description: "Create an account (administrators only).",
    args: { input: t.arg({ type: CreateAccountInput, required: true, description: "What to create." }) },
    resolve: (_query, _root, { input }, ctx) =>
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
  createEnvironment: t.prismaField({
    type: "Environment",
    description: "Create an environment for yourself (administrators: for anyone). Limited per plan.",
    args: { input: t.arg({ type: CreateEnvironmentInput, required: true, description: "What to create." }) },
    resolve: (_query, _root, { input }, ctx) =>
      createEnvironment(ctx.db, ctx.actor(), { accountId: input.accountId, name: input.name, versionCheck: input.versionCheck ?? undefined }),
  }),
  shareEnvironment: t.field({
    type: EnvironmentShareType,
    description: "Share an environment you own with another account as VIEWER or DEPLOYER (re-sharing changes the role).",
    args: { input: t.arg({ type: ShareEnvironmentInput, required: true, description: "Environment, account and role." }) },
    resolve: (_root, { input }, ctx) => shareEnvironment(ctx.db, ctx.actor(), input),
  }),
}));
