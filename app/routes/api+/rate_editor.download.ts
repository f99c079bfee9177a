import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { authorize, requireApiUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { exportRateCards } from "~/modules/rating/rate-cards.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

/** POST /api/rate_editor/download {filename}: the lanes one file imported, as CSV. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    authorize(user, isAdmin);
    const { filename } = parseOrThrow(z.object({ filename: z.string().min(1, "filename is required") }), await readBody(request));
    const csv = await exportRateCards(context.db, { filename });
    return new Response(csv, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"` } });
  });
}

export const loader = methodNotAllowed("POST");
