import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { documentsOf } from "~/modules/printing/consignment-documents.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { api, readQuery } from "~/utils/http.server";
import { A4, renderConsignmentNotesHtml } from "../../../print-templates/documents/Documents";

/** GET /print/consignment_notes?ids=1,2: consignment notes (Con Note, BOL for US senders), one PDF; ?format=html previews. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const docs = await documentsOf(context.db, user, readQuery(request), "notes");
    return documentResponse(request, context.renderer, { filename: "consignment-notes", html: () => renderConsignmentNotesHtml(docs), paper: A4 });
  });
}
