-- An owner's share is an offer until the account accepts it. Shares made before offers existed
-- were given at once: they count as accepted when they were made.
ALTER TABLE "EnvironmentShare" ADD COLUMN "acceptedAt" TIMESTAMP(3);
UPDATE "EnvironmentShare" SET "acceptedAt" = "createdAt";
