-- Deliveries of events that retention already deleted go too, with their attempts: from now on a
-- delivery is deleted with its event.
DELETE FROM "WebhookAttempt" WHERE "deliveryId" IN (SELECT "id" FROM "WebhookDelivery" WHERE "eventId" NOT IN (SELECT "id" FROM "ChangeEvent"));
DELETE FROM "WebhookDelivery" WHERE "eventId" NOT IN (SELECT "id" FROM "ChangeEvent");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "ChangeEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
