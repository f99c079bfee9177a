/**
 * The bulk upload job (spec 2 section 5): reads the stored file, groups its rows into
 * consignments, validates and rates each as the consignment screen's save would (the same schema,
 * the same completion rules and rate engine), and writes the good ones in multi-row inserts, one
 * transaction per batch. A consignment with any bad line is skipped whole, each line with its
 * reason. Sites, item types, services and the rating reference data are read once per upload.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/client.server";
import { insertMany } from "../../../db/insert-many";
import { refreshEmissions } from "../emissions/emissions.server";
import { addresses, bulkUploadReferences, bulkUploads, consignmentChanges, consignmentItems, consignments, carriers, dangerousGoodsItems, itemTypes, services, sites, type ConsignmentState } from "../../../db/schema";
import { loadCurrentUser, type CurrentUser, type SiteSummary } from "../auth/current-user.server";
import { canBulkUpload } from "../auth/roles";
import { addressValues } from "../addresses/address-json";
import { complete, serviceKey, type CompletionLookups } from "../consignments/completion.server";
import { customReferenceChoices } from "../consignments/custom-reference.server";
import { consignmentValues, dangerousGoodsValues, itemValues, quoteQuantityErrors, type OfferedService } from "../consignments/saved-values.server";
import { siteSenderAddress } from "../consignments/site-sender";
import { consignmentInputSchema, type ConsignmentInput } from "../consignments/schema";
import { skippedLocalTimes } from "../calendar/site-time";
import { ratingData, type RatingData } from "../rating/rating-data.server";
import { parseCsv } from "../../utils/csv.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom, FOR_A_PERSON } from "../../utils/validation";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
import { buildInput, errorsByLine, skippedLines, typeLookup, type SenderSite } from "./build";
import { cellsOf, headerProblem, mapHeaders } from "./columns";
import { groupReference, groupRows, type Group, type LineError } from "./group";
import { readUploadFile, removeUploadFile } from "./files.server";
import { mayUploadKind, type UploadKind } from "./kinds";

/** consignments validated together and written in one transaction */
export const BATCH = 500;

export interface ImportResult {
  upload_id: number;
  kind: UploadKind;
  /** consignments in the file */
  total: number;
  created: number;
  /** ids of the consignments made (the first 100) */
  consignment_ids: number[];
  skipped: LineError[];
  skipped_total: number;
}

export const progressMessage = (done: number, total: number) => `Processed ${done} of ${total} consignments`;
export const importMessage = (r: ImportResult) =>
  `${r.created} ${r.kind === "quote" ? "quote" : "consignment"}${r.created === 1 ? "" : "s"} created${r.skipped_total ? `; ${r.skipped_total} line${r.skipped_total === 1 ? "" : "s"} skipped` : ""}.`;
const SELECT_SERVICE = "Please select a carrier service";
export const ALREADY_UPLOADED = "These rows were already uploaded in another file: the consignment was not created again";

/** What is read once per upload. */
interface Context {
  user: CurrentUser;
  kind: UploadKind;
  uploadId: number;
  sites: Map<string, SenderSite & { som: "metric" | "imperial"; summary: SiteSummary }>;
  types: ReturnType<typeof typeLookup>;
  typeById: Map<number, { description: string | null }>;
  choices: { value: string }[] | null;
  lookups: CompletionLookups & { data: RatingData };
  now: Date;
}

/** A consignment that passed every check, ready to write. */
interface Good {
  group: Group;
  reference: string;
  input: ConsignmentInput;
  site: Context["sites"] extends Map<string, infer S> ? S : never;
  values: ReturnType<typeof consignmentValues>;
}

async function loadContext(db: DbOrTx, user: CurrentUser, kind: UploadKind, uploadId: number): Promise<Context> {
  const siteRows = user.siteIds.length ? await db.select().from(sites).where(and(eq(sites.customerId, user.customer.id), inArray(sites.id, user.siteIds))) : [];
  const summaries = new Map(user.sites.map((s) => [s.id, s]));
  const senderSites: Context["sites"] = new Map();
  for (const s of siteRows) {
    const summary = summaries.get(s.id);
    if (!summary) continue;
    senderSites.set(s.code.toLowerCase(), {
      id: s.id,
      code: s.code,
      som: summary.som,
      summary,
      address: siteSenderAddress(s),
    });
  }
  const typeRows = await db.select({ id: itemTypes.id, name: itemTypes.name, description: itemTypes.description }).from(itemTypes).where(eq(itemTypes.customerId, user.customer.id));
  const serviceRows = await db.select({ id: services.id, serviceCode: services.code, carrierCode: carriers.code }).from(services).innerJoin(carriers, eq(carriers.id, services.carrierId));
  const byCodes = new Map(serviceRows.map((s) => [serviceKey(s.carrierCode, s.serviceCode).toLowerCase(), s]));
  return {
    user,
    kind,
    uploadId,
    sites: senderSites,
    types: typeLookup(typeRows),
    typeById: new Map(typeRows.map((t) => [t.id, t])),
    choices: await customReferenceChoices(db, user),
    lookups: { data: await ratingData(db), serviceByCodes: (carrier, service) => byCodes.get(serviceKey(carrier, service).toLowerCase()) },
    now: new Date(),
  };
}

/** Reads what a batch will rate in as few queries as the cache allows: its places and their zones. */
async function warm(ctx: Context, inputs: ConsignmentInput[]) {
  const places = inputs.flatMap((i) => [i.sender_address, i.receiver_address].flatMap((a) => (a?.postcode && a.locality ? [{ locality: a.country === "NEW ZEALAND" && a.sublocality ? a.sublocality : a.locality, postcode: a.postcode, country: a.country }] : [])));
  const siteIds = [...new Set([...ctx.sites.values()].map((s) => s.id))];
  const offered = (await Promise.all(siteIds.map((id) => ctx.lookups.data.offered(id)))).flat();
  const carrierIds = [...new Set(offered.map((o) => o.carrier.id))];
  await ctx.lookups.data.places(places);
  if (carrierIds.length && places.length) await ctx.lookups.data.zones(carrierIds, places);
}

/** The checks of the screen's save and its completion; what is wrong, by field, or the values to write. */
async function check(db: DbOrTx, ctx: Context, input: ConsignmentInput): Promise<{ errors: FieldErrors } | { values: Good["values"]; site: Good["site"] }> {
  const site = ctx.sites.get(input.site_code!.toLowerCase())!;
  const errors: FieldErrors = ctx.kind === "quote" ? quoteQuantityErrors(input.items) : {};
  if (ctx.choices && input.custom_reference && !ctx.choices.some((c) => c.value === input.custom_reference)) {
    errors.custom_reference = [`${ctx.user.customer.customConsignmentReferenceLabel || "Custom reference"} must be one of the list`];
  }
  // a time the clocks skip at the sending site is refused, as the screen's save refuses it
  Object.assign(errors, skippedLocalTimes({ pickup_at: input.pickup_at, deliver_by: input.deliver_by, deliver_at: input.deliver_at }, site.summary.timezone));
  if (Object.keys(errors).length) return { errors };
  let done;
  try {
    done = await complete(db, ctx.user, site.summary, input, new Set(ctx.typeById.keys()), null, null, ctx.choices, ctx.now, ctx.lookups);
  } catch (e) {
    if (e instanceof AppError) return { errors: e.fieldErrors };
    throw e;
  }
  // a bulk upload makes only what the screen would make ready: anything still missing skips it.
  // The service is optional in a file, so "select a carrier service" (the screen's prompt while
  // something else keeps it from rating) is left out when there are real reasons
  const { carrier_name: selection, ...rest } = done.errors;
  const reasons = selection && (Object.keys(rest).length === 0 || !selection.every((m) => m === SELECT_SERVICE)) ? done.errors : rest;
  if (Object.keys(reasons).length || !done.rate) return { errors: Object.keys(reasons).length ? reasons : { carrier_name: ["No carrier service can carry this consignment"] } };
  const ss = (await ctx.lookups.data.offered(site.id)).find((o) => o.ss.id === done.rate!.site_service_id);
  const offered: OfferedService | null = ss ? { serviceId: ss.service.id, carrierAccountId: ss.ss.carrierAccountId, printConsignments: ss.carrier.printConsignments } : null;
  const state: ConsignmentState = ctx.kind === "quote" ? "quote" : "despatchable";
  const values = consignmentValues({ input, siteId: site.id, som: site.som, returnType: null, rate: done.rate, response: done.response, offered, existing: null, serviceId: null, userId: ctx.user.id, errors: {}, state, now: ctx.now, senderId: null, receiverId: null });
  return { values, site };
}

/** `n` ids from a table's own sequence: rows written in one statement are then known without relying on RETURNING's order. */
async function nextIds(tx: DbOrTx, table: string, n: number): Promise<number[]> {
  if (!n) return [];
  const result = (await tx.execute(sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n})`)) as unknown as { rows?: { id: number }[] } | { id: number }[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return rows.map((r) => Number(r.id));
}

/** Writes a batch of checked consignments: addresses, consignments, items, DG lines, history and references, a statement each. */
async function write(tx: DbOrTx, ctx: Context, good: Good[]): Promise<number[]> {
  const customerId = ctx.user.customer.id;
  const addressIds = await nextIds(tx, "addresses", good.length * 2);
  const consignmentIds = await nextIds(tx, "consignments", good.length);
  const lineCount = good.reduce((n, g) => n + g.input.items.length, 0);
  const itemIds = await nextIds(tx, "consignment_items", lineCount);
  await insertMany(tx, addresses,
    good.flatMap((g, i) => [
      { ...addressValues(customerId, g.site.id, g.input.sender_address!, g.site.som), id: addressIds[2 * i]! },
      { ...addressValues(customerId, g.site.id, g.input.receiver_address!, g.site.som), id: addressIds[2 * i + 1]! },
    ]),
  );
  await insertMany(tx, consignments,
    good.map((g, i) => ({
      ...g.values,
      id: consignmentIds[i]!,
      senderAddressId: addressIds[2 * i]!,
      receiverAddressId: addressIds[2 * i + 1]!,
      customerId,
      createdBy: ctx.user.id,
      isQuote: ctx.kind === "quote",
      returnType: null,
    })),
  );
  let next = 0;
  const items: (typeof consignmentItems.$inferInsert)[] = [];
  const dg: (typeof dangerousGoodsItems.$inferInsert)[] = [];
  good.forEach((g, i) => {
    const idAt = new Map<number, number>();
    g.input.items.forEach((item, position) => {
      const id = itemIds[next++]!;
      idAt.set(position, id);
      items.push({ ...itemValues(item, position, g.site.som, ctx.typeById), id, consignmentId: consignmentIds[i]!, ssccs: [] });
    });
    dg.push(...dangerousGoodsValues(g.input.items, idAt, g.site.som));
  });
  await insertMany(tx, consignmentItems, items);
  await insertMany(tx, dangerousGoodsItems, dg);
  await insertMany(tx, consignmentChanges, good.map((g, i) => ({ consignmentId: consignmentIds[i]!, version: 1, field: "created", fromValue: null, toValue: g.values.state, changedBy: ctx.user.id })));
  await insertMany(tx, bulkUploadReferences, good.map((g, i) => ({ customerId, reference: g.reference, consignmentId: consignmentIds[i]!, bulkUploadId: ctx.uploadId })));
  // their emissions as the screen's save stores them (docs/decisions/041), one statement for the batch
  await refreshEmissions(tx, consignmentIds, ctx.now);
  return consignmentIds;
}

/** The job: the whole file, batch by batch, with progress ('Processed n of total consignments'). */
export async function runBulkImport(db: Db, payload: { uploadId: number }, progress: (pct: number, message: string) => Promise<void>): Promise<ImportResult> {
  const [upload] = await db.select().from(bulkUploads).where(eq(bulkUploads.id, payload.uploadId));
  if (!upload || upload.kind === "redespatch") throw new Error("This bulk upload no longer exists.");
  const kind = upload.kind;
  const user = upload.userId ? await loadCurrentUser(db, upload.userId) : null;
  // the uploader's rights and customer as they are now: a flag taken away or a switched customer stops the job
  if (!user || !canBulkUpload(user) || !mayUploadKind(user, kind)) throw new Error("The user who uploaded this file may no longer bulk upload.");
  if (user.customer.id !== upload.customerId) throw new Error("The uploader now works for another customer: upload the file again.");

  const { headers, rows } = await parseCsv(await readUploadFile(db, upload));
  const header = mapHeaders(headers);
  const problem = headerProblem(header);
  if (problem) throw new AppError("invalid", problem);
  const { groups, orphans } = groupRows(rows.map((r) => ({ line: r.line, cells: cellsOf(r.values, header) })));
  const ctx = await loadContext(db, user, kind, upload.id);

  const result: ImportResult = { upload_id: upload.id, kind, total: groups.length, created: 0, consignment_ids: [], skipped: [], skipped_total: 0 };
  const skip = (lines: LineError[]) => {
    result.skipped_total += lines.length;
    for (const l of lines) if (result.skipped.length < UPLOAD_ERRORS_SHOWN) result.skipped.push(l);
  };
  const skippedByLine: LineError[] = [...orphans];
  await progress(0, progressMessage(0, groups.length));

  /** the references this run has met, across batches */
  const seen = new Set<string>();
  const writeBatch = async (good: Good[], done: number) => {
    // one transaction per batch; the customer's lock makes "is this consignment already uploaded?"
    // and the write one step: two files holding the same rows, running at once, cannot both make it
    const made = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${upload.customerId})`);
      const known = good.length
        ? await tx
            .select({ reference: bulkUploadReferences.reference, bulkUploadId: bulkUploadReferences.bulkUploadId, consignmentId: bulkUploadReferences.consignmentId })
            .from(bulkUploadReferences)
            .where(and(eq(bulkUploadReferences.customerId, upload.customerId), inArray(bulkUploadReferences.reference, good.map((g) => g.reference))))
        : [];
      const byReference = new Map(known.map((k) => [k.reference, k]));
      const fresh: Good[] = [];
      const again: number[] = [];
      for (const g of good) {
        const k = byReference.get(g.reference);
        // this upload's own consignment, from a run cut short and run again: made, not skipped
        // (one this run wrote, in an earlier batch or this one, is the same rows twice in the file)
        if (k && k.bulkUploadId === upload.id && !seen.has(g.reference)) again.push(k.consignmentId);
        else if (k || seen.has(g.reference)) skippedByLine.push(...g.group.rows.map((r) => ({ line: r.line, errors: [ALREADY_UPLOADED] })));
        else fresh.push(g);
        seen.add(g.reference);
      }
      return [...again, ...(fresh.length ? await write(tx, ctx, fresh) : [])];
    });
    result.created += made.length;
    for (const id of made) if (result.consignment_ids.length < UPLOAD_ERRORS_SHOWN) result.consignment_ids.push(id);
    if (done < groups.length) await progress(Math.floor((done / groups.length) * 100), progressMessage(done, groups.length));
  };
  let writing: Promise<void> = Promise.resolve();

  for (let start = 0; start < groups.length; start += BATCH) {
    const batch = groups.slice(start, start + BATCH);
    const parsed: Array<{ group: Group; input: ConsignmentInput }> = [];
    for (const group of batch) {
      const built = buildInput(group, ctx.sites, ctx.types);
      if (!built.raw) {
        skippedByLine.push(...skippedLines(group, built.errors));
        continue;
      }
      const result = consignmentInputSchema.safeParse(built.raw, FOR_A_PERSON);
      if (!result.success) {
        skippedByLine.push(...skippedLines(group, errorsByLine(group, fieldErrorsFrom(result.error))));
        continue;
      }
      parsed.push({ group, input: result.data });
    }
    await warm(ctx, parsed.map((p) => p.input));
    const good: Good[] = [];
    for (const { group, input } of parsed) {
      const checked = await check(db, ctx, input);
      if ("errors" in checked) skippedByLine.push(...skippedLines(group, errorsByLine(group, checked.errors)));
      else good.push({ group, input, reference: groupReference(kind, group), site: checked.site, values: checked.values });
    }
    // the previous batch's write ran while this batch was checked (the database works on the other
    // core meanwhile); writes stay one at a time and in order, so each sees the ones before it
    await writing;
    writing = writeBatch(good, Math.min(groups.length, start + BATCH));
    // a failed write is thrown by the await above or below, not left unhandled meanwhile
    writing.catch(() => {});
  }
  await writing;
  skip(skippedByLine.sort((a, b) => a.line - b.line));
  await db.update(bulkUploads).set({ totalLines: rows.length, created: result.created, skipped: result.skipped_total }).where(eq(bulkUploads.id, upload.id));
  await removeUploadFile(db, upload);
  return result;
}

/** the advisory lock space of bulk upload writes (with the customer id as the key) */
const LOCK_SPACE = 1017;
