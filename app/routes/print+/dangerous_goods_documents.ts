import type { LoaderFunctionArgs } from "@remix-run/node";
import { documentsOf } from "~/modules/printing/consignment-documents.server";
import { withDeclarations } from "~/modules/declarations/print.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { backToConsignment, idsNamed, printResponse } from "~/modules/printing/print-response.server";
import { readQuery } from "~/utils/http.server";
import { A4, renderDangerousGoodsHtml } from "../../../print-templates/documents/Documents";

/** GET /print/dangerous_goods_documents?ids=1,2: a dangerous goods document for each that carries them, one PDF (the customer's declarations after it when print_declarations is on); ?format=html previews. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return printResponse(
    request,
    context,
    async (user) => {
      const docs = await documentsOf(context.db, user, readQuery(request), "dangerous_goods");
      const res = await documentResponse(request, context.renderer, { filename: "dangerous-goods", html: () => renderDangerousGoodsHtml(docs), paper: A4 });
      // the customer's declarations follow when its print_declarations is on
      return withDeclarations(context.db, docs.map((d) => d.c), res);
    },
    (user) => backToConsignment(context.db, user, idsNamed(request)),
  );
}
