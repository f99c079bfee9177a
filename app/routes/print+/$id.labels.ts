import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { CurrentUser } from "~/modules/auth/current-user.server";
import { labelsOf, printLabels } from "~/modules/printing/labels.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { backToConsignment, printResponse } from "~/modules/printing/print-response.server";
import { assertMethod } from "~/utils/http.server";
import { idParam } from "~/utils/validation";
import { renderLabelsHtml, renderLabelsZpl } from "../../../print-templates/labels/Labels";

async function labels(request: Request, context: LoaderFunctionArgs["context"], user: CurrentUser, id: number) {
  const { labels: list, page } = await labelsOf(context.db, user, id);
  return documentResponse(request, context.renderer, {
    filename: `labels-${id}`,
    html: () => renderLabelsHtml(list, page),
    zpl: () => renderLabelsZpl(list),
    paper: { width: page.width, height: page.height },
  });
}

/** The consignment's screen is the way back from its labels. */
const back = (context: LoaderFunctionArgs["context"], id: string | undefined) => (user: CurrentUser) => backToConsignment(context.db, user, [Number(id)]);

/** GET /print/{id}/labels: the labels as printed (reprint); ?format=html previews, ?format=zpl for thermal printers. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return printResponse(request, context, (user) => labels(request, context, user, idParam(params.id, "Consignment id")), back(context, params.id));
}

/** POST /print/{id}/labels: prints them, allocating the consignment number and SSCCs the first time. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return printResponse(
    request,
    context,
    async (user) => {
      assertMethod(request, "POST");
      const id = idParam(params.id, "Consignment id");
      await printLabels(context.db, user, id);
      return labels(request, context, user, id);
    },
    back(context, params.id),
  );
}
