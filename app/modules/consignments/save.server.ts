/** Saving a consignment (create or update): the screen's Save and POST/PUT /api/consignments. */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import {
  addresses,
  consignmentItems,
  consignments,
  dangerousGoodsItems,
  itemTypes,
  type ConsignmentState,
} from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { skippedLocalTimes, todayIn } from "../calendar/site-time";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { isEditable } from "./rules";
import { addressValues } from "../addresses/address-json";
import { consignmentInputSchema, type ConsignmentInput } from "./schema";
import { consignmentValues, dangerousGoodsValues, itemValues, offeredServiceOf, quoteQuantityErrors } from "./saved-values.server";
import { transition } from "./lifecycle";
import { loadRow, STALE_MESSAGE, toJson, webhookConsignmentJson, type ConsignmentJson, type ConsignmentRow } from "./consignments.server";
import { complete } from "./completion.server";
import { writeAudit } from "./audit.server";
import { customReferenceChoices } from "./custom-reference.server";
import { completeLabelRecords } from "../numbers/label-records.server";
import { refreshEmissions } from "../emissions/emissions.server";
import { emitEvent } from "../webhooks/index.server";

/** The consignment's own copy of an address: updated in place, created on first save, removed when cleared. */
async function writeAddress(tx: DbOrTx, currentId: number | null, values: ReturnType<typeof addressValues> | null): Promise<number | null> {
  if (!values) return null;
  if (currentId) {
    await tx.update(addresses).set(values).where(eq(addresses.id, currentId));
    return currentId;
  }
  const [row] = await tx.insert(addresses).values(values).returning({ id: addresses.id });
  return row!.id;
}

export interface SaveOptions {
  /** a quote (state quote; 1 or 2 digit quantities) */
  isQuote?: boolean;
  returnType?: "return" | "third_party" | null;
  now?: Date;
  /** SSCCs a trusted caller carries with each line, by position (a merge brings the source's); never from input */
  lineSsccs?: Array<string[] | undefined>;
}

export interface SaveResult {
  consignment: ConsignmentJson;
  /** false when saved but incomplete ('... has been saved but is incomplete.') */
  complete: boolean;
}

/**
 * Creates (no id) or updates a consignment: POST/PUT /api/consignments and the screen's Save.
 * Hard input errors are refused (422) and change nothing; what is merely missing is saved with
 * the consignment's `errors` and leaves it open. An update names the version it read: a save
 * from an older version is refused as stale (409).
 */
export async function saveConsignment(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown, options: SaveOptions = {}): Promise<SaveResult> {
  const input = parseOrThrow(consignmentInputSchema, raw);
  const now = options.now ?? new Date();
  // one transaction: the consignment, its addresses, items and audit rows change together or not at all
  return db.transaction(async (tx) => {
    const existing = id ? await loadRow(tx, user, id) : null;
    // a kind named by the caller must match (the quote screen saves quotes only); else an update keeps its own
    const isQuote = options.isQuote ?? existing?.isQuote ?? false;
    const returnType = options.returnType !== undefined ? options.returnType : (existing?.returnType ?? null);
    if (existing && (existing.isQuote !== isQuote || existing.returnType !== returnType)) throw notFound(isQuote ? "Quote" : "Consignment");
    if (isQuote) {
      // quotes take 1 or 2 digit quantities (spec 1 section 5)
      const errors = quoteQuantityErrors(input.items);
      if (Object.keys(errors).length) throw new AppError("invalid", "Quantity must be 1 or 2 digits", errors);
    }
    if (existing) {
      if (input.version == null) throw new AppError("invalid", "Version is required", { version: ["Version is required"] });
      if (input.version !== existing.version) throw new AppError("stale", STALE_MESSAGE);
      if (!isEditable(existing.state)) throw new AppError("conflict", "This consignment can no longer be edited", { base: ["This consignment can no longer be edited"] });
    }
    const before = existing ? await toJson(tx, user, existing) : null;

    const site = pickSite(user, input, existing);
    const choices = await customReferenceChoices(tx, user);
    if (choices && input.custom_reference && !choices.some((c) => c.value === input.custom_reference)) {
      const message = `${user.customer.customConsignmentReferenceLabel || "Custom reference"} must be one of the list`;
      throw new AppError("invalid", message, { custom_reference: [message] });
    }
    // the past of the sending site: its today, not UTC's
    if (input.despatch_date && input.despatch_date < todayIn(site.timezone, now) && input.despatch_date !== existing?.despatchDate) {
      throw new AppError("invalid", "Despatch date cannot be in the past", { despatch_date: ["Despatch date cannot be in the past"] });
    }
    const skipped = skippedLocalTimes(
      { pickup_at: input.pickup_at, deliver_by: input.deliver_by, deliver_at: input.deliver_at, "return_info.ready_at": input.return_info?.ready_at, "return_info.closing_at": input.return_info?.closing_at },
      site.timezone,
    );
    if (Object.keys(skipped).length) throw new AppError("invalid", Object.values(skipped)[0]![0]!, skipped);

    const types = await tx
      .select({ id: itemTypes.id, description: itemTypes.description })
      .from(itemTypes)
      .where(eq(itemTypes.customerId, user.customer.id));
    const typeById = new Map(types.map((t) => [t.id, t]));
    const { errors, rate, response, serviceId } = await complete(tx, user, site, input, new Set(typeById.keys()), existing, returnType, choices, now);
    const ready = Object.keys(errors).length === 0 && Boolean(rate);
    // a quote being promoted arrives here with isQuote already cleared (promoteQuote)
    const state: ConsignmentState = isQuote
      ? "quote"
      : !existing
        ? ready ? "despatchable" : "open"
        : transition(existing.state, existing.state === "quote" ? (ready ? "promote_complete" : "promote_incomplete") : ready ? "complete" : "incomplete");

    // the rated site service names the service and the site's account for it, which owns the number ranges
    const offered = rate ? await offeredServiceOf(tx, rate.site_service_id) : null;
    const senderId = await writeAddress(tx, existing?.senderAddressId ?? null, input.sender_address ? addressValues(user.customer.id, site.id, input.sender_address, site.som) : null);
    const receiverId = await writeAddress(tx, existing?.receiverAddressId ?? null, input.receiver_address ? addressValues(user.customer.id, site.id, input.receiver_address, site.som) : null);

    const values = consignmentValues({ input, siteId: site.id, som: site.som, returnType, rate, response, offered, existing, serviceId, userId: user.id, errors, state, now, senderId, receiverId });

    let saved: ConsignmentRow;
    // the SSCCs printed on a line's labels stay with it while the line keeps its place, quantity and type
    let printedLines: Array<{ position: number; quantity: number; itemTypeId: number | null; ssccs: string[] }> = [];
    if (existing) {
      // optimistic lock: only the version that was read may be replaced
      const [row] = await tx
        .update(consignments)
        .set({ ...values, version: sql`${consignments.version} + 1` })
        .where(and(eq(consignments.id, existing.id), eq(consignments.version, existing.version)))
        .returning();
      if (!row) throw new AppError("stale", STALE_MESSAGE);
      saved = row;
      printedLines = await tx
        .select({ position: consignmentItems.position, quantity: consignmentItems.quantity, itemTypeId: consignmentItems.itemTypeId, ssccs: consignmentItems.ssccs })
        .from(consignmentItems)
        .where(eq(consignmentItems.consignmentId, existing.id));
      await tx.delete(consignmentItems).where(eq(consignmentItems.consignmentId, existing.id));
    } else {
      const [row] = await tx
        .insert(consignments)
        .values({ ...values, customerId: user.customer.id, createdBy: user.id, isQuote, returnType })
        .returning();
      saved = row!;
    }

    // every line in one statement, then every dangerous goods line in one more
    const itemRows = input.items.length
      ? await tx
          .insert(consignmentItems)
          .values(
            input.items.map((item, position) => {
              return {
                ...itemValues(item, position, site.som, typeById),
                consignmentId: saved.id,
                ssccs: (() => {
                  if (options.lineSsccs?.[position]?.length) return options.lineSsccs[position];
                  const was = printedLines.find((l) => l.position === position);
                  return was && was.quantity === item.quantity && was.itemTypeId === (item.item_type_id ?? null) ? was.ssccs : [];
                })(),
              };
            }),
          )
          .returning({ id: consignmentItems.id, position: consignmentItems.position })
      : [];
    const itemIdAt = new Map(itemRows.map((r) => [r.position, r.id]));
    const dgValues = dangerousGoodsValues(input.items, itemIdAt, site.som);
    if (dgValues.length) await tx.insert(dangerousGoodsItems).values(dgValues);

    // labels once printed stay whole: a line added or changed since (a merge, a consolidation) gets its SSCCs now
    if (existing?.labelsPrintedAt && state === "despatchable" && values.carrierAccountId) {
      const labels = await completeLabelRecords(tx, [{ id: saved.id, carrierAccountId: values.carrierAccountId }]);
      saved = { ...saved, numberOfLabels: labels.get(saved.id)! };
    }

    // the figure of what this save wrote (weight, places, service), in its transaction: a rolled-back save leaves the old one
    await refreshEmissions(tx, [saved.id], now);
    const after = await toJson(tx, user, saved);
    await writeAudit(tx, user, saved.id, saved.version, before, after);
    // in this transaction: the delivery exists exactly when the consignment does
    if (!existing && !isQuote) {
      await emitEvent(tx, { type: "consignment.created", customerId: saved.customerId, consignmentId: saved.id, payload: () => webhookConsignmentJson(tx, saved) });
    }
    return { consignment: after, complete: Object.keys(errors).length === 0 && Boolean(rate) };
  });
}

/** The site a consignment is sent from: one of the user's sites, by code or id; else the one it has, the user's default, or the first. */
function pickSite(user: CurrentUser, input: ConsignmentInput, existing: ConsignmentRow | null) {
  const wanted = input.site_code
    ? user.sites.find((s) => s.code.toLowerCase() === input.site_code!.toLowerCase())
    : input.site_id
      ? user.sites.find((s) => s.id === input.site_id)
      : user.sites.find((s) => s.id === (existing?.siteId ?? user.defaultSiteId)) ?? user.sites[0];
  if (!wanted) throw new AppError("invalid", "Site is not one of yours", { site_code: ["Site is not one of yours"] });
  return wanted;
}
