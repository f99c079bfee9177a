import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { labelsOf, printLabels } from "~/modules/printing/labels.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { api, assertMethod } from "~/utils/http.server";
import { idParam } from "~/utils/validation";
import { renderLabelsHtml, renderLabelsZpl } from "../../../print-templates/labels/Labels";

async function labels(request: Request, context: LoaderFunctionArgs["context"], id: number) {
  const { user } = await requireApiUser(context, request);
  const { labels: list, page } = await labelsOf(context.db, user, id);
  return documentResponse(request, context.renderer, {
    filename: `labels-${id}`,
    html: () => renderLabelsHtml(list, page),
    zpl: () => renderLabelsZpl(list),
    paper: { width: page.width, height: page.height },
  });
}

/** GET /print/{id}/labels: the labels as printed (reprint); ?format=html previews, ?format=zpl for thermal printers. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(() => labels(request, context, idParam(params.id, "Consignment id")));
}

/** POST /print/{id}/labels: prints them, allocating the consignment number and SSCCs the first time. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const id = idParam(params.id, "Consignment id");
    await printLabels(context.db, user, id);
    return labels(request, context, id);
  });
}
