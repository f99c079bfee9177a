import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { batchLabelsOf, printLabelBatch, type LabelBatch } from "~/modules/printing/batch-labels.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { BACK_TO_CONSIGNMENTS, printResponse } from "~/modules/printing/print-response.server";
import { assertMethod, readForm, readQuery } from "~/utils/http.server";
import { renderLabelsHtml, renderLabelsZpl } from "../../../print-templates/labels/Labels";

async function respond(request: Request, context: LoaderFunctionArgs["context"], batch: LabelBatch) {
  const res = await documentResponse(request, context.renderer, {
    filename: "labels",
    html: () => renderLabelsHtml(batch.labels, batch.page),
    zpl: () => renderLabelsZpl(batch.labels),
    paper: { width: batch.page.width, height: batch.page.height },
  });
  // the list says how many labels went to the printer
  if (res.ok) res.headers.set("X-Label-Count", String(batch.labels.length));
  return res;
}

/** The ids of ?ids=1,2 or of a form's checkboxes (ids=1&ids=2). */
async function idsOf(request: Request): Promise<string[]> {
  const query = readQuery(request).getAll("ids");
  if (query.length) return query;
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const body = (await request.json().catch(() => ({}))) as { ids?: unknown };
    return Array.isArray(body.ids) ? body.ids.map(String) : body.ids == null ? [] : [String(body.ids)];
  }
  if (type.includes("form")) return (await readForm(request)).getAll("ids").map(String);
  return [];
}

/** GET /print/labels?ids=1,2: the labels of several consignments as printed (reprint), one document. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return printResponse(request, context, async (user) => respond(request, context, await batchLabelsOf(context.db, user, { ids: await idsOf(request) })), () => BACK_TO_CONSIGNMENTS);
}

/** POST /print/labels?ids=1,2 (or the list's form): prints them, allocating numbers and SSCCs the first time; all or none. */
export async function action({ request, context }: ActionFunctionArgs) {
  return printResponse(
    request,
    context,
    async (user) => {
      assertMethod(request, "POST");
      return respond(request, context, await printLabelBatch(context.db, user, { ids: await idsOf(request) }));
    },
    () => BACK_TO_CONSIGNMENTS,
  );
}
