// Plan limits (semantics.md "Plans and limits"). `null` means no limit.
export type Plan = "free" | "team" | "unlimited";

export interface PlanLimits {
  activeGrantsPerEnvironment: number | null;
  publishedReleasesPerAccount: number | null;
  environmentsPerAccount: number | null;
  definitionBytes: number;
  /** Webhooks of the account and of its environments together. */
  webhooksPerAccount: number | null;
}

const KIB = 1024;

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { activeGrantsPerEnvironment: 20, publishedReleasesPerAccount: 50, environmentsPerAccount: 3, definitionBytes: 256 * KIB, webhooksPerAccount: 5 },
  team: { activeGrantsPerEnvironment: 500, publishedReleasesPerAccount: 5000, environmentsPerAccount: 50, definitionBytes: 1024 * KIB, webhooksPerAccount: 50 },
  unlimited: {
    activeGrantsPerEnvironment: null,
    publishedReleasesPerAccount: null,
    environmentsPerAccount: null,
    definitionBytes: 4096 * KIB,
    webhooksPerAccount: null,
  },
};

export const REQUEST_BODY_LIMIT_BYTES = 8 * 1024 * KIB;

/** The plan whose limits apply to a stored value; one the database should never hold counts as free. */
export function effectivePlan(plan: string): Plan {
  return Object.hasOwn(PLAN_LIMITS, plan) ? (plan as Plan) : "free";
}

export function limitsOf(plan: string): PlanLimits {
  return PLAN_LIMITS[effectivePlan(plan)];
}
