import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { declarationFileResponse } from "~/modules/declarations/declarations.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/declarations/{declarationId}/file: the PDF as an attachment (staff; the screen's download link). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return declarationFileResponse(context.db, user, idParam(params.id, "Customer id"), idParam(params.declarationId, "Declaration id"));
  });
}
