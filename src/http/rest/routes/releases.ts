// REST routes for tool releases (service.md 4.2, operations 7-10).
import type { RestRoute } from "../route.js";

export const RELEASE_ROUTES: RestRoute[] = [];
