-- The string enum stays a CHECK constraint of the redefined table (Prisma's drift check ignores it).

-- Deliveries of events that retention already deleted go too, with their attempts: from now on a
-- delivery is deleted with its event.
DELETE FROM "WebhookAttempt" WHERE "deliveryId" IN (SELECT "id" FROM "WebhookDelivery" WHERE "eventId" NOT IN (SELECT "id" FROM "ChangeEvent"));
DELETE FROM "WebhookDelivery" WHERE "eventId" NOT IN (SELECT "id" FROM "ChangeEvent");

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending' CHECK ("status" IN ('pending', 'delivered', 'failed')),
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "redeliverRequestedAt" DATETIME,
    CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "ChangeEvent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WebhookDelivery" ("createdAt", "eventId", "id", "redeliverRequestedAt", "status", "webhookId") SELECT "createdAt", "eventId", "id", "redeliverRequestedAt", "status", "webhookId" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_webhookId_id_idx" ON "WebhookDelivery"("webhookId", "id");
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");
CREATE UNIQUE INDEX "WebhookDelivery_webhookId_eventId_key" ON "WebhookDelivery"("webhookId", "eventId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
