-- Written by hand: the string enums of the schema (documented on each field of prisma/schema.prisma)
-- are enforced by the database too, so no writer (a script, a raw query, a future bug) can store a
-- value every reader would have to guess about. Prisma's schema cannot declare CHECK constraints and
-- its drift check ignores them. Keep them when a later migration redefines these tables.

-- The CLI stored any --plan before it validated its options. Limits already treated an unknown plan
-- as free, so that is what such an account has been, and now says it is.
UPDATE "Account" SET "plan" = 'free' WHERE "plan" NOT IN ('free', 'team', 'unlimited');

ALTER TABLE "Account" ADD CONSTRAINT "Account_plan_check" CHECK ("plan" IN ('free', 'team', 'unlimited'));

ALTER TABLE "EnvironmentShare" ADD CONSTRAINT "EnvironmentShare_role_check" CHECK ("role" IN ('viewer', 'deployer'));

ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_lifecycle_check" CHECK ("lifecycle" IN ('published', 'de-published', 'superseded'));

ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_origin_check" CHECK ("origin" IN ('ordinary', 'protected-system'));

ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_systemAvailability_check" CHECK ("systemAvailability" IN ('grantable', 'auto-granted', 'ambient'));

ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_sourceKind_check" CHECK ("sourceKind" IN ('component'));

ALTER TABLE "Grant" ADD CONSTRAINT "Grant_lifecycle_check" CHECK ("lifecycle" IN ('active', 'deleted'));
