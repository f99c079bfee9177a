/**
 * The item types list screen's form posts (spec 2 "Item types list"), answered on the page: the
 * same services as the /api calls, with the form's field names.
 */
import type { Alert } from "../../components/Alerts";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { readCsvUpload } from "../../utils/csv.server";
import { AppError } from "../../utils/errors";
import { readPageForm } from "../../utils/http.server";
import { moveOne } from "../../utils/reorder";
import { importItemTypes, type ImportReport } from "./import-export.server";
import { bulkDeleteItemTypes, itemTypeCustomer, itemTypesOf, sortAlphabetically, updateSequenceOrder } from "./item-types.server";

export interface ListOutcome {
  status: number;
  alerts: Alert[];
  errors?: ImportReport["errors"];
  successes?: ImportReport["successes"];
}

const numbers = (values: FormDataEntryValue[]) => values.map((v) => String(v));

export async function itemTypeListAction(db: DbOrTx, user: CurrentUser, customerId: number, request: Request): Promise<ListOutcome> {
  try {
    await itemTypeCustomer(db, user, customerId, true);
    if ((request.headers.get("content-type") ?? "").includes("multipart/form-data")) {
      const report = await importItemTypes(db, user, customerId, (await readCsvUpload(request)).text);
      const message = `Item types imported: ${report.successes.length} added, ${report.errors.length} skipped.`;
      return { status: 200, alerts: [{ type: report.errors.length ? "warning" : "success", message }], ...report };
    }
    const form = await readPageForm(request);
    const intent = form.get("intent");
    if (intent === "sort") {
      await sortAlphabetically(db, user, customerId);
      return { status: 200, alerts: [{ type: "success", message: "Item types sorted alphabetically." }] };
    }
    if (intent === "order") {
      await updateSequenceOrder(db, user, customerId, { ids: numbers(form.getAll("ids")) });
      return { status: 200, alerts: [] };
    }
    if (intent === "move") {
      // without JavaScript: one row one place up or down
      const ids = moveOne((await itemTypesOf(db, customerId)).map((t) => t.id), Number(form.get("id")), form.get("direction") === "up" ? "up" : "down");
      if (!ids) throw new AppError("not_found", "Item type not found");
      await updateSequenceOrder(db, user, customerId, { ids });
      return { status: 200, alerts: [{ type: "success", message: "Order saved." }] };
    }
    if (intent === "bulk_delete") {
      const { deleted } = await bulkDeleteItemTypes(db, user, customerId, { bulk_item_types: numbers(form.getAll("bulk_item_types")) });
      return { status: 200, alerts: [{ type: "success", message: `${deleted.length} item type${deleted.length === 1 ? "" : "s"} deleted.` }] };
    }
    throw new AppError("bad_request", "Choose an action.");
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === "forbidden") throw new Response(e.message, { status: 403 });
    const message = e.code === "invalid" && e.fieldErrors.bulk_item_types ? "Select the item types to delete." : e.message;
    return { status: e.status, alerts: [{ type: "error", message }] };
  }
}
