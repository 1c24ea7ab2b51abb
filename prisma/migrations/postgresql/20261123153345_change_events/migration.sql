-- Event ids are compared bytewise (COLLATE "C", set by hand), so id order is the same as on SQLite whatever the locale.
-- CreateTable
CREATE TABLE "ChangeEvent" (
    "id" TEXT COLLATE "C" NOT NULL,
    "type" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorAccountId" TEXT,
    "environmentId" TEXT,
    "releaseId" TEXT,
    "accountId" TEXT NOT NULL,
    "state" TEXT NOT NULL,

    CONSTRAINT "ChangeEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChangeEvent_environmentId_id_idx" ON "ChangeEvent"("environmentId", "id");

-- CreateIndex
CREATE INDEX "ChangeEvent_accountId_id_idx" ON "ChangeEvent"("accountId", "id");
