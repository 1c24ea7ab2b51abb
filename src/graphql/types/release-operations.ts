// Tool release operations (REST operations 8-10): read one release, de-publish it, restore it.
// Listing an account's releases (operation 7) is the Account.toolReleaseList field.
import { depublishRelease, findRelease, restoreRelease } from "../../domain/releases.js";
import { findFirstPlanned, type Database } from "../../db/client.js";
import { builder } from "../builder.js";

/** Reads a release back with the caller's selection after the domain changed it. */
const reload = <Query extends object>(db: Database, id: string, query: Query) => db.toolRelease.findUniqueOrThrow({ ...query, where: { id } });

builder.queryField("toolRelease", (t) =>
  t.prismaField({
    type: "ToolRelease",
    nullable: true,
    description: "A tool release you own (administrators: any), in any lifecycle. Others get TOOL_RELEASE_NOT_FOUND.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The release's `uuid` (not its global `id`)." }) },
    resolve: (query, _root, args, ctx) => findRelease(ctx.actor(), args.id, (where) => findFirstPlanned(ctx.db, "toolRelease", { ...query, where })),
  }),
);

builder.mutationFields((t) => ({
  depublishToolRelease: t.prismaField({
    type: "ToolRelease",
    nullable: true,
    description:
      "De-publish a published release you own: it can no longer be granted and its grants disappear from view (they are kept, " +
      "and return on restore). Not published → TOOL_RELEASE_LIFECYCLE_CONFLICT; system-provided release → AUTH_FORBIDDEN.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The `uuid` of the release to de-publish (not its global `id`)." }) },
    resolve: async (query, _root, args, ctx) => reload(ctx.db, (await depublishRelease(ctx.db, ctx.actor(), args.id)).id, query),
  }),
  restoreToolRelease: t.prismaField({
    type: "ToolRelease",
    nullable: true,
    description:
      "Publish a de-published release you own again; its grants become visible again. Counts against the plan's published " +
      "releases (LIMIT_EXCEEDED). Not de-published → TOOL_RELEASE_LIFECYCLE_CONFLICT; system-provided release → AUTH_FORBIDDEN.",
    args: { id: t.arg({ type: "UUID", required: true, description: "The `uuid` of the release to restore (not its global `id`)." }) },
    resolve: async (query, _root, args, ctx) => reload(ctx.db, (await restoreRelease(ctx.db, ctx.actor(), args.id)).id, query),
  }),
}));
