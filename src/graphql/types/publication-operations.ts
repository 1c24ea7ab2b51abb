// Validate and apply (REST operation 3 and its executing extension): a body of publications
// and grant changes, planned by validateToolMiddlewares and carried out by applyToolMiddlewares.
// Definitions arrive as JSON and are checked by the domain, which reports every issue with its path.
import {
  applyChanges,
  validateChanges,
  type ApplyResult,
  type PlanEntry,
  type PublicationAction as Action,
  type ValidationResult,
} from "../../domain/publications.js";
import { builder } from "../builder.js";
import { enumOfSpecWords } from "../enums.js";
import { ReleaseSelectorInput } from "./grant-operations.js";
import { GrantType } from "./grant.js";
import { ToolReleaseType } from "./tool-release.js";

const PublicationAction = enumOfSpecWords("PublicationAction", "What applying a publication does at its coordinate (owner, name, version).", {
  publish: "No release holds the coordinate (or only superseded ones): a new release is published.",
  noChange: "The published release has identical content (same metadataDigest): nothing happens.",
  supersede: "The published release is mutable and differs: it is superseded, and grants that follow coordinates move to the new release.",
  conflict: "The coordinate cannot take this content (immutable or versionCheck, or a de-published release): apply refuses the whole body.",
} satisfies Record<Action, string>);

const PlanEntryType = builder.objectRef<PlanEntry>("PublicationPlanEntry").implement({
  description: "The planned outcome of one publication.",
  fields: (t) => ({
    action: t.field({ type: PublicationAction, description: "What apply does (or refuses to do) for this publication.", resolve: (entry) => entry.action }),
    name: t.exposeString("name", { description: "The middleware name." }),
    version: t.exposeString("version", { description: "The version published (the definition's `version`)." }),
    reason: t.exposeString("reason", { description: "Why this action, in words." }),
  }),
});

const ReleaseSourceInput = builder.inputType("ReleaseSourceInput", {
  description: "The component a published release is built from.",
  fields: (t) => ({
    kind: t.string({ required: true, description: "Source kind; `component` is the only kind." }),
    componentId: t.field({ type: "UUID", required: true, description: "Component UUID." }),
    componentRevision: t.int({ required: true, description: "Component revision, 0 or more." }),
    componentName: t.string({ required: true, description: "Component name." }),
  }),
});

const PublicationInput = builder.inputType("ToolMiddlewarePublicationInput", {
  description: "A middleware definition to publish under the environment owner's account.",
  fields: (t) => ({
    name: t.string({ required: true, description: "The middleware name; must equal `definition.name`." }),
    definition: t.field({
      type: "JSON",
      required: true,
      description: "The whole middleware definition. Checked by the service, which lists every issue with its path.",
    }),
    source: t.field({
      type: ReleaseSourceInput,
      required: false,
      description: "Where the release comes from. Required by apply for publications that publish or supersede; validate ignores a missing one.",
    }),
  }),
});

const ReconciliationCreationInput = builder.inputType("GrantReconciliationCreationInput", {
  description: "A grant to create, as operation 2 would; may name a release published by the same body (BY_COORDINATES).",
  fields: (t) => ({
    release: t.field({ type: ReleaseSelectorInput, required: true, description: "The release to grant." }),
    automatic: t.boolean({ required: false, description: "true: managed by reconciliation; false (default): managed by a person." }),
  }),
});

const GrantReconciliationInput = builder.inputType("GrantReconciliationInput", {
  description: "Grant changes made after the publications: creations first, then deletions.",
  fields: (t) => ({
    creations: t.field({ type: [ReconciliationCreationInput], required: true, defaultValue: [], description: "Grants to create. Defaults to none." }),
    deletions: t.field({
      type: ["UUID"],
      required: true,
      defaultValue: [],
      description: "UUIDs of active, automatic, unprotected grants of this environment to delete. Defaults to none.",
    }),
  }),
});

const ChangesInput = builder.inputType("ToolMiddlewareChangesInput", {
  description: "A validation or apply request: publications, then grant changes.",
  fields: (t) => ({
    grantReconciliation: t.field({
      type: GrantReconciliationInput,
      required: true,
      defaultValue: { creations: [], deletions: [] },
      description: "Grant creations and deletions. Defaults to none.",
    }),
    publications: t.field({
      type: [PublicationInput],
      required: true,
      defaultValue: [],
      description: "Definitions to publish, names unique. Defaults to none.",
    }),
  }),
});

const ValidationResultType = builder.objectRef<ValidationResult>("ValidationResult").implement({
  description: "What applying the same body would do. Validation changes nothing.",
  fields: (t) => ({
    publicationPlan: t.field({
      type: [PlanEntryType],
      description: "One entry per publication, in request order.",
      resolve: (result) => result.publicationPlan,
    }),
  }),
});

const ApplyResultType = builder.objectRef<ApplyResult>("ApplyResult").implement({
  description: "What apply did, all in one transaction.",
  fields: (t) => ({
    publicationPlan: t.field({
      type: [PlanEntryType],
      description: "The plan that was carried out, one entry per publication.",
      resolve: (result) => result.publicationPlan,
    }),
    releases: t.field({ type: [ToolReleaseType], description: "Releases published or superseding an earlier one.", resolve: (result) => result.releases }),
    grants: t.field({
      type: [GrantType],
      description:
        "Grants of this environment moved to a superseding release, then the grant each creation resulted in (created, restored, updated or already in place); once each.",
      resolve: (result) => result.grants,
    }),
    deletedGrantIds: t.field({ type: ["UUID"], description: "UUIDs of the grants deleted.", resolve: (result) => result.deletedGrantIds }),
  }),
});

const changesArgs = builder.args((t) => ({
  environmentId: t.field({ type: "UUID", required: true, description: "The environment whose owner publishes and whose grants change." }),
  input: t.field({ type: ChangesInput, required: true, description: "Publications and grant changes." }),
}));

builder.queryField("validateToolMiddlewares", (t) =>
  t.field({
    type: ValidationResultType,
    description:
      "Plan publications and check grant changes without changing anything (viewers, deployers, owners; grant changes need a deployer or owner). " +
      "Fails with the error apply would give, except that conflicts are reported in the plan.",
    args: changesArgs,
    resolve: (_root, args, ctx) => validateChanges(ctx.db, ctx.actor(), args.environmentId, args.input),
  }),
);

builder.mutationField("applyToolMiddlewares", (t) =>
  t.field({
    type: ApplyResultType,
    description:
      "Carry out what validateToolMiddlewares plans (deployers and owners): publications, then grant creations, then deletions, in one transaction. " +
      "Any conflict or error changes nothing.",
    args: changesArgs,
    resolve: (_root, args, ctx) => applyChanges(ctx.db, ctx.actor(), args.environmentId, args.input),
  }),
);
