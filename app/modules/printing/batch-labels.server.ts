/**
 * Labels of several consignments as one document (the list's Print Labels and Auto Labels):
 * POST /print/labels?ids= prints them (numbers and SSCCs allocated the first time, as
 * POST /print/{id}/labels does for one), GET reprints what was printed.
 */
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { parseOrThrow } from "../../utils/validation";
import type { LabelData, LabelPage } from "../../../print-templates/labels/Labels";
import { lockForNumbering } from "../numbers/numbers.server";
import { labelsOf, printLabels } from "./labels.server";
import { recordId } from "../../utils/ids";

/** A list page holds 100 rows a group; a batch of 200 keeps one PDF to a few seconds. */
export const MAX_BATCH = 200;

const idsSchema = z.object({
  ids: z
    .union([z.array(z.string()), z.string()], { error: "ids are required" })
    .transform((v) => [...new Set((Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).filter(Boolean).map(Number))])
    .pipe(
      z
        .array(recordId("ids must be consignment ids"))
        .min(1, "No consignments have been selected.")
        .max(MAX_BATCH, `At most ${MAX_BATCH} consignments at a time`),
    ),
});

export interface LabelBatch {
  labels: LabelData[];
  /** the page of the first consignment; each label carries its own, so sizes may mix */
  page: LabelPage;
  ids: number[];
}

/** The labels of the batch as printed, in the order asked (customer and sites scoped by labelsOf). */
export async function batchLabelsOf(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<LabelBatch> {
  const { ids } = parseOrThrow(idsSchema, raw);
  const labels: LabelData[] = [];
  let page: LabelPage | null = null;
  for (const id of ids) {
    const one = await labelsOf(db, user, id);
    labels.push(...one.labels);
    page ??= one.page;
  }
  return { labels, page: page!, ids };
}

/** Prints the batch: all of it or, when one of them cannot print, none of it. */
export async function printLabelBatch(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<LabelBatch> {
  const { ids } = parseOrThrow(idsSchema, raw);
  // one transaction: a refused consignment leaves no number or SSCC allocated to the others;
  // its rows locked in the global order first, so overlapping batches queue instead of deadlocking
  await db.transaction(async (tx) => {
    await lockForNumbering(tx, user.customer.id, ids);
    for (const id of [...ids].sort((a, b) => a - b)) await printLabels(tx, user, id);
  });
  return batchLabelsOf(db, user, { ids: ids.map(String) });
}
