-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "admin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Environment" (
    "id" TEXT NOT NULL,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "versionCheck" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Environment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EnvironmentShare" (
    "environmentId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EnvironmentShare_pkey" PRIMARY KEY ("environmentId","accountId")
);

-- CreateTable
-- Edited by hand: name and version compare bytewise (COLLATE "C") so lists ordered by them come out
-- in the same order as on SQLite whatever the database's locale. Prisma's schema cannot say this
-- (and its drift check ignores collations), so keep it when a later migration redefines these columns.
CREATE TABLE "ToolRelease" (
    "id" TEXT NOT NULL,
    "ownerAccountId" TEXT NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "version" TEXT COLLATE "C" NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,
    "stateChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedById" TEXT NOT NULL,

    CONSTRAINT "ToolRelease_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Grant" (
    "id" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "protected" BOOLEAN NOT NULL DEFAULT false,
    "automatic" BOOLEAN NOT NULL DEFAULT false,
    "followCoordinates" BOOLEAN NOT NULL DEFAULT false,
    "lifecycle" TEXT NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT NOT NULL,
    "stateChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedById" TEXT NOT NULL,

    CONSTRAINT "Grant_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Environment" ADD CONSTRAINT "Environment_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentShare" ADD CONSTRAINT "EnvironmentShare_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EnvironmentShare" ADD CONSTRAINT "EnvironmentShare_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ToolRelease" ADD CONSTRAINT "ToolRelease_stateChangedById_fkey" FOREIGN KEY ("stateChangedById") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_releaseId_fkey" FOREIGN KEY ("releaseId") REFERENCES "ToolRelease"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Grant" ADD CONSTRAINT "Grant_stateChangedById_fkey" FOREIGN KEY ("stateChangedById") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
