import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { downloadExport } from "~/modules/exports/exports.server";
import { api } from "~/utils/http.server";

/** GET /api/exports/{jobId}/download: the finished export's file, for the user who ran it (else 404). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return downloadExport(context.db, user, params.jobId ?? "");
  });
}
