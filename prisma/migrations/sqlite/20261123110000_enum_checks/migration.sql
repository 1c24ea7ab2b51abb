-- Written by hand: the string enums of the schema (documented on each field of prisma/schema.prisma)
-- are enforced by the database too, so no writer (a script, a raw query, a future bug) can store a
-- value every reader would have to guess about.
--
-- SQLite cannot add a CHECK constraint to an existing table: it would take a rebuild of Account,
-- EnvironmentShare, ToolRelease and Grant (create, copy, drop, rename, re-index). Dropping Account
-- while foreign keys are enforced cascades into ApiToken and EnvironmentShare, so the rebuild would
-- depend on PRAGMA foreign_keys being off for the migrating connection (the pragma is a no-op inside
-- a transaction). BEFORE INSERT/UPDATE triggers give the same guarantee without touching a row.
-- Prisma ignores triggers in its drift check. A later migration that redefines one of these tables
-- (Prisma's "RedefineTables") drops its triggers with the old table, so recreate them there.

-- The CLI stored any --plan before it validated its options. Limits already treated an unknown plan
-- as free, so that is what such an account has been, and now says it is.
UPDATE "Account" SET "plan" = 'free' WHERE "plan" NOT IN ('free', 'team', 'unlimited');

CREATE TRIGGER "Account_plan_check_insert" BEFORE INSERT ON "Account"
WHEN NEW."plan" NOT IN ('free', 'team', 'unlimited')
BEGIN
    SELECT RAISE(ABORT, 'Account.plan must be one of free, team, unlimited');
END;

CREATE TRIGGER "Account_plan_check_update" BEFORE UPDATE OF "plan" ON "Account"
WHEN NEW."plan" NOT IN ('free', 'team', 'unlimited')
BEGIN
    SELECT RAISE(ABORT, 'Account.plan must be one of free, team, unlimited');
END;

CREATE TRIGGER "EnvironmentShare_role_check_insert" BEFORE INSERT ON "EnvironmentShare"
WHEN NEW."role" NOT IN ('viewer', 'deployer')
BEGIN
    SELECT RAISE(ABORT, 'EnvironmentShare.role must be one of viewer, deployer');
END;

CREATE TRIGGER "EnvironmentShare_role_check_update" BEFORE UPDATE OF "role" ON "EnvironmentShare"
WHEN NEW."role" NOT IN ('viewer', 'deployer')
BEGIN
    SELECT RAISE(ABORT, 'EnvironmentShare.role must be one of viewer, deployer');
END;

CREATE TRIGGER "ToolRelease_lifecycle_check_insert" BEFORE INSERT ON "ToolRelease"
WHEN NEW."lifecycle" NOT IN ('published', 'de-published', 'superseded')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.lifecycle must be one of published, de-published, superseded');
END;

CREATE TRIGGER "ToolRelease_lifecycle_check_update" BEFORE UPDATE OF "lifecycle" ON "ToolRelease"
WHEN NEW."lifecycle" NOT IN ('published', 'de-published', 'superseded')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.lifecycle must be one of published, de-published, superseded');
END;

CREATE TRIGGER "ToolRelease_origin_check_insert" BEFORE INSERT ON "ToolRelease"
WHEN NEW."origin" NOT IN ('ordinary', 'protected-system')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.origin must be one of ordinary, protected-system');
END;

CREATE TRIGGER "ToolRelease_origin_check_update" BEFORE UPDATE OF "origin" ON "ToolRelease"
WHEN NEW."origin" NOT IN ('ordinary', 'protected-system')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.origin must be one of ordinary, protected-system');
END;

CREATE TRIGGER "ToolRelease_systemAvailability_check_insert" BEFORE INSERT ON "ToolRelease"
WHEN NEW."systemAvailability" NOT IN ('grantable', 'auto-granted', 'ambient')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.systemAvailability must be one of grantable, auto-granted, ambient');
END;

CREATE TRIGGER "ToolRelease_systemAvailability_check_update" BEFORE UPDATE OF "systemAvailability" ON "ToolRelease"
WHEN NEW."systemAvailability" NOT IN ('grantable', 'auto-granted', 'ambient')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.systemAvailability must be one of grantable, auto-granted, ambient');
END;

CREATE TRIGGER "ToolRelease_sourceKind_check_insert" BEFORE INSERT ON "ToolRelease"
WHEN NEW."sourceKind" NOT IN ('component')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.sourceKind must be one of component');
END;

CREATE TRIGGER "ToolRelease_sourceKind_check_update" BEFORE UPDATE OF "sourceKind" ON "ToolRelease"
WHEN NEW."sourceKind" NOT IN ('component')
BEGIN
    SELECT RAISE(ABORT, 'ToolRelease.sourceKind must be one of component');
END;

CREATE TRIGGER "Grant_lifecycle_check_insert" BEFORE INSERT ON "Grant"
WHEN NEW."lifecycle" NOT IN ('active', 'deleted')
BEGIN
    SELECT RAISE(ABORT, 'Grant.lifecycle must be one of active, deleted');
END;

CREATE TRIGGER "Grant_lifecycle_check_update" BEFORE UPDATE OF "lifecycle" ON "Grant"
WHEN NEW."lifecycle" NOT IN ('active', 'deleted')
BEGIN
    SELECT RAISE(ABORT, 'Grant.lifecycle must be one of active, deleted');
END;
