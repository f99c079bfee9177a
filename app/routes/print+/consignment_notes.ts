import type { LoaderFunctionArgs } from "@remix-run/node";
import { documentsOf } from "~/modules/printing/consignment-documents.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { backToConsignment, idsNamed, printResponse } from "~/modules/printing/print-response.server";
import { readQuery } from "~/utils/http.server";
import { A4, renderConsignmentNotesHtml } from "../../../print-templates/documents/Documents";

/** GET /print/consignment_notes?ids=1,2: consignment notes (Con Note, BOL for US senders), one PDF; ?format=html previews. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return printResponse(
    request,
    context,
    async (user) => {
      const docs = await documentsOf(context.db, user, readQuery(request), "notes");
      return documentResponse(request, context.renderer, { filename: "consignment-notes", html: () => renderConsignmentNotesHtml(docs), paper: A4 });
    },
    (user) => backToConsignment(context.db, user, idsNamed(request)),
  );
}
