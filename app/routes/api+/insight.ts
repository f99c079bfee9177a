import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { insightScreen } from "~/modules/insight/screen.server";
import { AppError } from "~/utils/errors";
import { api, methodNotAllowed } from "~/utils/http.server";

/**
 * GET /api/insight?section&from&to&customer_id&site_id&carrier_id&service_id&lane&currency: a
 * section's figures (headline and charts, each with its categories and series), as /insight draws them.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const screen = await insightScreen(context.db, user, new URL(request.url));
    if (!screen.ok) throw new AppError(screen.status === 400 ? "bad_request" : "not_found", screen.message, screen.errors);
    return { filters: screen.filters, ...screen.page };
  });
}

export const action = methodNotAllowed("GET");
