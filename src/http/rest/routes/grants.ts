// REST routes for grants (service.md 4.1, operations 1-6).
import type { RestRoute } from "../route.js";

export const GRANT_ROUTES: RestRoute[] = [];
