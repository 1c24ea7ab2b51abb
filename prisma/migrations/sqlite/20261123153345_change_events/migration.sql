-- CreateTable
CREATE TABLE "ChangeEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorAccountId" TEXT,
    "environmentId" TEXT,
    "releaseId" TEXT,
    "accountId" TEXT NOT NULL,
    "state" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "ChangeEvent_environmentId_id_idx" ON "ChangeEvent"("environmentId", "id");

-- CreateIndex
CREATE INDEX "ChangeEvent_accountId_id_idx" ON "ChangeEvent"("accountId", "id");
