/**
 * Item labels: printing them the first time gives the consignment its number and every label its
 * SSCC (a POST, in one transaction); reprinting reads what was allocated (a GET changes nothing).
 */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, consignments } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { getConsignment, lockConsignment, type ConsignmentJson } from "../consignments/consignments.server";
import { formatDate, isDespatched, isFailed } from "../consignments/rules";
import { allocateConsignmentNumber } from "../numbers/numbers.server";
import { completeLabelRecords } from "../numbers/label-records.server";
import { AppError } from "../../utils/errors";
import { labelPage, type LabelData, type LabelPage } from "../../../print-templates/labels/Labels";

export const NOT_PRINTABLE = "Only a complete consignment with a rate can print labels";
export const NOT_PRINTED = "Labels have not been printed yet: print them from the consignment screen first.";

const printable = (c: ConsignmentJson) => !c.is_quote && (c.state === "despatchable" || isDespatched(c.state) || isFailed(c.state));

/**
 * Prints labels (POST /print/{id}/labels): the consignment number and the SSCCs a line still
 * lacks are allocated from the carrier account, labels_printed_at is set the first time.
 * Repeating it allocates nothing new.
 */
export async function printLabels(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  return db.transaction(async (tx) => {
    // locked, then read: two printers cannot both allocate for what neither has seen
    const { row, consignment: c } = await lockConsignment(tx, user, id);
    if (!printable(c)) throw new AppError("conflict", NOT_PRINTABLE, { base: [NOT_PRINTABLE] });
    if (!row.carrierAccountId) throw new AppError("conflict", "The chosen service has no carrier account at this site. Please contact customer services.");
    const accountId = row.carrierAccountId;
    const number = c.consignment_number ?? (await allocateConsignmentNumber(tx, accountId));
    const total = (await completeLabelRecords(tx, [{ id, carrierAccountId: accountId }], { writeTotals: false })).get(id)!;
    const [saved] = await tx
      .update(consignments)
      .set({
        consignmentNumber: number,
        numberOfLabels: total,
        labelsPrintedAt: row.labelsPrintedAt ?? new Date(),
        version: sql`${consignments.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(consignments.id, id)))
      .returning({ version: consignments.version });
    await tx.insert(consignmentChanges).values({ consignmentId: id, version: saved!.version, field: "labels_printed", fromValue: c.consignment_number, toValue: `${number} (${total} labels)`, changedBy: user.id });
    return getConsignment(tx, user, id);
  });
}

const units = (som: string) => (som === "imperial" ? { weight: "lb", length: "in" } : { weight: "kg", length: "cm" });
const round = (n: number) => Math.round(n * 1000) / 1000;

/** The labels of a consignment as printed (GET /print/{id}/labels): refused before the first print. */
export async function labelsOf(db: DbOrTx, user: CurrentUser, id: number): Promise<{ labels: LabelData[]; page: LabelPage; consignment: ConsignmentJson }> {
  const c = await getConsignment(db, user, id);
  if (!c.consignment_number || !c.items.length || c.items.some((i) => i.ssccs.length === 0)) throw new AppError("conflict", NOT_PRINTED, { base: [NOT_PRINTED] });
  const u = units(c.som);
  const address = (a: ConsignmentJson["sender_address"]) => ({
    name: a?.name ?? "",
    lines: [a?.address_line_1, a?.address_line_2].filter((x): x is string => Boolean(x)),
    place: [a?.sublocality, a?.locality, a?.region, a?.postcode].filter(Boolean).join(" "),
    phone: a?.phone,
  });
  const all = c.items.flatMap((item) =>
    item.ssccs.map((sscc) => ({
      sscc,
      item,
      // each label is one unit of the line (a type of several labels repeats its unit's figures)
      weight: `${round((item.weight_in_uom ?? 0) / Math.max(1, item.quantity))} ${u.weight}`,
      dimensions: `${item.length ?? 0} x ${item.width ?? 0} x ${item.height ?? 0} ${u.length}`,
    })),
  );
  const labels: LabelData[] = all.map((l, i) => ({
    consignmentNumber: c.consignment_number!,
    sscc: l.sscc,
    carrierName: c.carrier_name ?? "",
    serviceName: c.service_name ?? "",
    sender: address(c.sender_address),
    receiver: address(c.receiver_address),
    index: i + 1,
    total: all.length,
    itemType: l.item.item_type_description ?? "",
    weight: l.weight,
    dimensions: l.dimensions,
    dangerousGoods: l.item.dangerous_goods_items.map((d) => `UN${d.un_number} class ${d.hazard_class || "NIL"}`),
    specialInstructions: c.special_instructions,
    reference: c.reference,
    despatchDate: formatDate(c.despatch_date, c.sender_address?.country),
  }));
  const portrait = (c.options as { is_label_portrait?: boolean }).is_label_portrait !== false;
  const page = labelPage(c.sender_address?.country === "UNITED STATES OF AMERICA", portrait);
  return { labels: labels.map((l) => ({ ...l, page })), page, consignment: c };
}
