// Grant operations: get, create, delete and restore (REST operations 2, 4, 5, 6).
// Resolvers only call the domain; grants come back through the field's Prisma `query`, so nested
// `release { owner }` selections load in the same Prisma query.
import { findFirstPlanned, type Database } from "../../db/client.js";
import { createGrant, deleteGrant, findGrant, restoreGrant } from "../../domain/grants.js";
import type { ReleaseSelectorType as ReleaseSelectorTypeWord } from "../../domain/grant-release-selector.js";
import type { Grant } from "../../db/generated/sqlite/client.js";
import { builder } from "../builder.js";
import { enumOfSpecWords } from "../enums.js";

const ReleaseSelectorType = enumOfSpecWords("ReleaseSelectorType", "How a release selector names a release.", {
  ById: "By the release's UUID (`releaseId`); published or superseded releases.",
  ByCoordinates: "By the owner's e-mail (`account`), `name` and `version`; the current published release at that coordinate.",
} satisfies Record<ReleaseSelectorTypeWord, string>);

export const ReleaseSelectorInput = builder.inputType("ReleaseSelectorInput", {
  description: "Names the release to grant. Give exactly the fields its `type` uses.",
  fields: (t) => ({
    type: t.field({ type: ReleaseSelectorType, required: true, description: "BY_ID or BY_COORDINATES." }),
    releaseId: t.field({ type: "UUID", required: false, description: "BY_ID: the release's `uuid`." }),
    account: t.string({ required: false, description: "BY_COORDINATES: the e-mail of the account owning the release." }),
    name: t.string({ required: false, description: "BY_COORDINATES: the middleware name." }),
    version: t.string({ required: false, description: "BY_COORDINATES: the release version." }),
  }),
});

const CreateGrantInput = builder.inputType("CreateGrantInput", {
  description: "A grant creation: which release, and who manages the grant.",
  fields: (t) => ({
    release: t.field({ type: ReleaseSelectorInput, required: true, description: "The release to grant." }),
    automatic: t.boolean({
      required: false,
      description: "true: managed by reconciliation; false (default): managed by a person. An automatic request never takes over a manual grant.",
    }),
  }),
});

/**
 * The grant the domain changed (and committed: grant rows are never removed) with the caller's
 * selection: the row itself when it carries everything the selection asks for (a REST deletion
 * selects the id; a creation brings its release and the release's owner), else read back with it.
 */
async function reload<Query extends object>(db: Database, changed: Grant, query: Query) {
  if (carriesSelection(query, changed)) return changed;
  const grant = await findFirstPlanned(db, "grant", { ...query, where: { id: changed.id } });
  if (!grant) throw new Error(`grant ${changed.id} not found after its change was committed`);
  return grant;
}

/**
 * Whether `row` holds what `query` selects: a select of columns (each a property of the row) and
 * of to-one relations held the same way, nothing else (no include, list, filter or count).
 */
function carriesSelection(query: object, row: object): boolean {
  const { select, ...rest } = query as { select?: Record<string, unknown> };
  if (select === undefined || Object.keys(rest).length > 0) return false;
  return Object.entries(select).every(([name, wanted]) => {
    if (wanted === false) return true;
    if (!(name in row)) return false;
    if (wanted === true) return true;
    const related = (row as Record<string, unknown>)[name];
    // A relation the row holds as absent (null) carries any selection under it.
    if (related === null) return true;
    return typeof related === "object" && !Array.isArray(related) && !(related instanceof Date) && carriesSelection(wanted as object, related);
  });
}

builder.queryField("grant", (t) =>
  t.prismaField({
    type: "Grant",
    nullable: true,
    description: "An active grant in an environment you can see whose release is published or superseded.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The grant's `uuid` (not its global `id`)." }) },
    resolve: (query, _root, args, ctx) => findGrant(ctx.actor(), args.id, (where) => findFirstPlanned(ctx.db, "grant", { ...query, where })),
  }),
);

builder.mutationFields((t) => ({
  createGrant: t.prismaField({
    type: "Grant",
    nullable: true,
    description:
      "Grant an exact release to an environment (owner or deployer). Idempotent: an existing grant is returned, restored in place when deleted, or has its flags updated.",
    args: {
      environmentId: t.arg({ type: "UUID", required: true, description: "The environment receiving the grant." }),
      input: t.arg({ type: CreateGrantInput, required: true, description: "The release and the grant's flags." }),
    },
    resolve: async (query, _root, args, ctx) => {
      const grant = await createGrant(ctx.db, ctx.actor(), args.environmentId, args.input);
      return reload(ctx.db, grant, query);
    },
  }),
  deleteGrant: t.prismaField({
    type: "Grant",
    nullable: true,
    description: "Soft-delete an active grant (owner or deployer) and return it. Protected grants cannot be deleted.",
    args: {
      id: t.arg({ type: "UUID", required: true, description: "The grant's `uuid` (not its global `id`)." }),
      automatic: t.arg.boolean({
        required: false,
        description: "true when reconciliation deletes: then only automatic grants may be deleted. Defaults to false.",
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const grant = await deleteGrant(ctx.db, ctx.actor(), args.id, { automatic: args.automatic });
      return reload(ctx.db, grant, query);
    },
  }),
  restoreGrant: t.prismaField({
    type: "Grant",
    nullable: true,
    description: "Re-activate a deleted grant as a manual grant (owner or deployer). Its release must still be available.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The grant's `uuid` (not its global `id`)." }) },
    resolve: async (query, _root, args, ctx) => {
      const grant = await restoreGrant(ctx.db, ctx.actor(), args.id);
      return reload(ctx.db, grant, query);
    },
  }),
}));
