-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "admin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "ApiToken_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Environment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "versionCheck" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Environment_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "EnvironmentShare" (
    "environmentId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("environmentId", "accountId"),
    CONSTRAINT "EnvironmentShare_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "EnvironmentShare_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ToolRelease" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "sourceKind" TEXT NOT NULL DEFAULT 'component',
    "componentId" TEXT NOT NULL,
    "componentRevision" INTEGER NOT NULL,
    "componentName" TEXT NOT NULL,
    "definition" TEXT NOT NULL,
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
    CONSTRAINT "ToolRelease_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ToolRelease_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "ToolRelease_stateChangedById_fkey" FOREIGN KEY ("stateChangedById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Grant" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "environmentId" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "automatic" BOOLEAN NOT NULL DEFAULT false,
    "followCoordinates" BOOLEAN NOT NULL DEFAULT false,
    "lifecycle" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,
    "stateChangedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedById" TEXT NOT NULL,
    CONSTRAINT "Grant_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Grant_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "ToolRelease" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Grant_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Grant_stateChangedById_fkey" FOREIGN KEY ("stateChangedById") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Account_email_key" ON "Account"("email");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_secretHash_key" ON "ApiToken"("secretHash");

-- CreateIndex
CREATE INDEX "ApiToken_accountId_idx" ON "ApiToken"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "Environment_ownerAccountId_name_key" ON "Environment"("ownerAccountId", "name");

-- CreateIndex
CREATE INDEX "EnvironmentShare_accountId_idx" ON "EnvironmentShare"("accountId");

-- CreateIndex
CREATE INDEX "ToolRelease_ownerAccountId_lifecycle_name_idx" ON "ToolRelease"("ownerAccountId", "lifecycle", "name");

-- CreateIndex
CREATE UNIQUE INDEX "ToolRelease_ownerAccountId_name_version_currentCoordinate_key" ON "ToolRelease"("ownerAccountId", "name", "version", "currentCoordinate");

-- CreateIndex
CREATE INDEX "Grant_environmentId_lifecycle_idx" ON "Grant"("environmentId", "lifecycle");

-- CreateIndex
CREATE INDEX "Grant_releaseId_idx" ON "Grant"("releaseId");

-- CreateIndex
CREATE UNIQUE INDEX "Grant_environmentId_releaseId_key" ON "Grant"("environmentId", "releaseId");
