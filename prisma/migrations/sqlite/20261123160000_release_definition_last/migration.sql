-- Written by hand: SQLite stores a row's columns in table order and a definition (tens of KiB)
-- spills into overflow pages, so reading any column after it walks that chain. With the
-- definition last, reads that leave it out (the nested GraphQL read's releases) stop before it.
-- Prisma ignores column order, hence no generated migration; this is its RedefineTables form.
-- Dropping the old table drops its enum triggers (20261123110000_enum_checks): recreated below.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ToolRelease" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "sourceKind" TEXT NOT NULL DEFAULT 'component',
    "componentId" TEXT NOT NULL,
    "componentRevision" INTEGER NOT NULL,
    "componentName" TEXT NOT NULL,
    "metadataVersion" TEXT NOT NULL,
    "metadataDigest" TEXT NOT NULL,
    "sourceDigest" TEXT NOT NULL,
    "immutable" BOOLEAN NOT NULL,
    "lifecycle" TEXT NOT NULL DEFAULT 'published',
    "origin" TEXT NOT NULL DEFAULT 'ordinary',
    "systemAvailability" TEXT NOT NULL DEFAULT 'grantable',
    "currentCoordinate" BOOLEAN DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,
    "stateChangedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedById" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
    CONSTRAINT "ToolRelease_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ToolRelease_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ToolRelease_stateChangedById_fkey" FOREIGN KEY ("stateChangedById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_ToolRelease" ("id", "ownerAccountId", "name", "version", "sourceKind", "componentId", "componentRevision", "componentName", "metadataVersion", "metadataDigest", "sourceDigest", "immutable", "lifecycle", "origin", "systemAvailability", "currentCoordinate", "createdAt", "createdById", "stateChangedAt", "stateChangedById", "definition") SELECT "id", "ownerAccountId", "name", "version", "sourceKind", "componentId", "componentRevision", "componentName", "metadataVersion", "metadataDigest", "sourceDigest", "immutable", "lifecycle", "origin", "systemAvailability", "currentCoordinate", "createdAt", "createdById", "stateChangedAt", "stateChangedById", "definition" FROM "ToolRelease";
DROP TABLE "ToolRelease";
ALTER TABLE "new_ToolRelease" RENAME TO "ToolRelease";
CREATE INDEX "ToolRelease_ownerAccountId_lifecycle_name_idx" ON "ToolRelease"("ownerAccountId", "lifecycle", "name");
CREATE UNIQUE INDEX "ToolRelease_ownerAccountId_name_version_currentCoordinate_key" ON "ToolRelease"("ownerAccountId", "name", "version", "currentCoordinate");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
