// The /v1 route table: one entry per operation of docs/api.md (plus extensions).
import type { RestRoute } from "./route.js";
import { GRANT_ROUTES } from "./routes/grants.js";
import { PUBLICATION_ROUTES } from "./routes/publications.js";
import { RELEASE_ROUTES } from "./routes/releases.js";
import { EVENT_ROUTES } from "./routes/events.js";
import { WEBHOOK_ROUTES } from "./routes/webhooks.js";

export const REST_ROUTES: readonly RestRoute[] = [...GRANT_ROUTES, ...RELEASE_ROUTES, ...PUBLICATION_ROUTES, ...EVENT_ROUTES, ...WEBHOOK_ROUTES];
