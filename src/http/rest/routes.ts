// The /v1 route table: one entry per operation of service.md section 4 (plus extensions).
import type { RestRoute } from "./route.js";

export const REST_ROUTES: readonly RestRoute[] = [];
