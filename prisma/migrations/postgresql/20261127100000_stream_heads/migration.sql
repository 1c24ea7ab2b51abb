-- Each environment's and each account's newest change event, and `*` for the system's: writers lock
-- the heads of the streams they append to instead of one lock shared by every writer.
CREATE TABLE "StreamHead" (
    "stream" TEXT NOT NULL,
    "head" TEXT NOT NULL,

    CONSTRAINT "StreamHead_pkey" PRIMARY KEY ("stream")
);

INSERT INTO "StreamHead" ("stream", "head")
SELECT 'environment:' || "environmentId", MAX("id") FROM "ChangeEvent" WHERE "environmentId" IS NOT NULL GROUP BY "environmentId";
INSERT INTO "StreamHead" ("stream", "head")
SELECT 'account:' || "accountId", MAX("id") FROM "ChangeEvent" GROUP BY "accountId";
INSERT INTO "StreamHead" ("stream", "head")
SELECT '*', MAX("id") FROM "ChangeEvent" HAVING MAX("id") IS NOT NULL;
