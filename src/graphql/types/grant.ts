// Grant: an environment's grant of one exact tool release.
import { builder } from "../builder.js";
import { GrantLifecycle } from "../enums.js";

export const GrantType = builder.prismaNode("Grant", {
  description: "An environment's grant of one exact tool release.",
  id: { field: "id" },
  nullable: true,
  // Select mode: the type brings its id, every other field selects its own column (see ToolRelease).
  select: { id: true },
  fields: (t) => ({
    uuid: t.field({ type: "UUID", description: "The grant's UUID: what `grant(id:)`, the grant mutations and REST take.", resolve: (grant) => grant.id }),
    environmentId: t.field({
      type: "UUID",
      description: "UUID of the environment holding the grant.",
      select: { environmentId: true },
      resolve: (grant) => grant.environmentId,
    }),
    environment: t.relation("environment", { description: "The environment holding the grant." }),
    releaseId: t.field({
      type: "UUID",
      description: "UUID of the granted release (REST: toolMiddlewareReleaseId).",
      select: { releaseId: true },
      resolve: (grant) => grant.releaseId,
    }),
    release: t.relation("release", { description: "The granted release." }),
    protected: t.exposeBoolean("protected", { description: "Provisioned by the system; users can never delete or restore it." }),
    automatic: t.exposeBoolean("automatic", { description: "Managed by reconciliation (true) or by a person (false)." }),
    followCoordinates: t.exposeBoolean("followCoordinates", {
      description: "Created by coordinates: moves to the new release when its coordinate is superseded.",
    }),
    lifecycle: t.field({ type: GrantLifecycle, description: "Lifecycle state.", select: { lifecycle: true }, resolve: (grant) => grant.lifecycle as never }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the grant was created." }),
    createdById: t.expose("createdById", { type: "UUID", description: "UUID of the account that created it." }),
    stateChangedAt: t.expose("stateChangedAt", { type: "DateTime", description: "When its lifecycle last changed." }),
    stateChangedById: t.expose("stateChangedById", { type: "UUID", description: "UUID of the account that last changed its lifecycle." }),
  }),
});

/** One connection type for every list of grants (Environment.grants, ToolRelease.grants), so clients can share fragments. */
export const GrantConnection = builder.connectionObject(
  { type: GrantType, name: "GrantConnection", description: "A page of grants, Relay style." },
  { name: "GrantEdge", description: "A grant on a page, with its cursor." },
);
