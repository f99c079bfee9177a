import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { DOCUMENT_TYPES } from "~/modules/consignments/information";
import { retrieveFile } from "~/modules/consignments/information.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { api, readQueryObject } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

const query = z.object({ type: z.enum(DOCUMENT_TYPES, { error: `type must be one of ${DOCUMENT_TYPES.join(", ")}` }) });

/** GET /api/retrieve_file?id&type=labels|connote|dangerous_goods|manifest: a document printed for the consignment, as PDF (admin, super admin, devs). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const params = readQueryObject(request);
    const id = idParam(params.id, "Consignment id");
    const { type } = parseOrThrow(query, params);
    return documentResponse(request, context.renderer, await retrieveFile(context.db, user, id, type));
  });
}
