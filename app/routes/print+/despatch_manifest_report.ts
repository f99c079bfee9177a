import type { LoaderFunctionArgs } from "@remix-run/node";
import { manifestsOf } from "~/modules/printing/consignment-documents.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { BACK_TO_MANIFESTS, printResponse } from "~/modules/printing/print-response.server";
import { readQuery } from "~/utils/http.server";
import { A4 } from "../../../print-templates/documents/Documents";
import { renderManifestsHtml } from "../../../print-templates/documents/Manifest";

/** GET /print/despatch_manifest_report?ids=1,2: the despatch manifest reports, one PDF (A4, 10 mm top and bottom); ?format=html previews. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return printResponse(
    request,
    context,
    async (user) => {
      const list = await manifestsOf(context.db, user, readQuery(request));
      return documentResponse(request, context.renderer, { filename: "despatch-manifests", html: () => renderManifestsHtml(list), paper: A4 });
    },
    () => BACK_TO_MANIFESTS,
  );
}
