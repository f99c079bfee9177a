/**
 * The consignment information view (spec 2 sections 2, 3 and 5): the field/value table, the
 * documents printed for it (Download Files) and a super admin's corrections (Info Save). Read by
 * admin, super_admin and devs; written by super admins alone. Scoped as every consignment read:
 * another customer's id is not found.
 */
import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import { describeEmissions } from "../emissions/method";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, consignmentChanges, consignments, customers, manifests, services, sites, trackingEvents, users } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { canSeeConsignmentInformation, isSuperAdmin } from "../auth/roles";
import { localDate, localTime } from "../calendar/site-time";
import { documentsOf, manifestsOf } from "../printing/consignment-documents.server";
import { labelsOf } from "../printing/labels.server";
import type { PaperSize } from "../printing/renderer.server";
import { env } from "../../utils/env.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { A4, renderConsignmentNotesHtml, renderDangerousGoodsHtml } from "../../../print-templates/documents/Documents";
import { renderManifestsHtml } from "../../../print-templates/documents/Manifest";
import { renderLabelsHtml, renderLabelsZpl } from "../../../print-templates/labels/Labels";
import { consignmentChangesOf } from "./audit.server";
import { loadRow, STALE_MESSAGE, toJson, type ConsignmentJson, type ConsignmentRow } from "./consignments.server";
import {
  DOCUMENT_NAMES,
  DOCUMENT_TYPES,
  EDITABLE_FIELDS,
  MESSAGES,
  NOT_AVAILABLE,
  QA_FIELDS,
  qaEditsAllowed,
  superadminUpdateSchema,
  type DocumentType,
  type InformationJson,
} from "./information";
import { CONSIGNMENT_STATES } from "../../../db/schema/consignments";
import { VARIANTS, variantOf } from "./variants";

/** The audit row a super admin's Info Save leaves besides its fields' changes: what the 5 s block looks for. */
export const SUPERADMIN_SAVE = "superadmin_save";

function assertCanSee(user: CurrentUser) {
  if (!canSeeConsignmentInformation(user)) throw new AppError("forbidden", forbiddenMessage(user));
}

/** The documents that apply to it: labels once printed, the connote when the carrier wants one, DG when hazardous, the manifest once manifested. */
function documentsApplying(c: ConsignmentJson): DocumentType[] {
  const numbered = Boolean(c.consignment_number);
  const applies: Record<DocumentType, boolean> = {
    labels: numbered && c.items.length > 0 && c.items.every((i) => i.ssccs.length > 0),
    connote: numbered && c.print_connote,
    dangerous_goods: numbered && c.print_dangerous_goods_documents,
    manifest: c.manifest_id != null,
  };
  return DOCUMENT_TYPES.filter((t) => applies[t]);
}

const text = (v: unknown) => (v == null || v === "" ? null : String(v));
const address = (a: ConsignmentJson["sender_address"]) =>
  a ? [a.name, a.address_line_1, a.address_line_2, a.sublocality, a.locality, a.region, a.postcode, a.country].filter(Boolean).join(", ") : null;

/** GET /api/consignment_information?id: the field/value table, its site, the documents and what a super admin may edit. */
export async function consignmentInformation(db: DbOrTx, user: CurrentUser, id: number): Promise<InformationJson> {
  assertCanSee(user);
  const row = await loadRow(db, user, id);
  const c = await toJson(db, user, row);
  const [site, extra, lastChange, delivered] = await Promise.all([
    db.select().from(sites).where(eq(sites.id, row.siteId)).then((r) => r[0]!),
    related(db, row),
    db
      .select({ at: consignmentChanges.changedAt, by: users.fullName })
      .from(consignmentChanges)
      .leftJoin(users, eq(users.id, consignmentChanges.changedBy))
      .where(eq(consignmentChanges.consignmentId, id))
      .orderBy(desc(consignmentChanges.id))
      .limit(1)
      .then((r) => r[0] ?? null),
    db
      .select({ event: trackingEvents.event, time: trackingEvents.eventTime, pod: trackingEvents.podUrl })
      .from(trackingEvents)
      .where(and(eq(trackingEvents.consignmentId, id), inArray(trackingEvents.event, ["delivered", "delivered_with_pod"])))
      .orderBy(asc(trackingEvents.eventTime)),
  ]);
  const when = (at: Date | null | undefined) => (at ? localTime(at, site.timezone, site.country) : null);
  const day = (at: Date | null | undefined) => (at ? localDate(at, site.timezone, site.country) : null);
  const pod = delivered.find((e) => e.event === "delivered_with_pod" || e.pod);
  const items = c.items.map((i) =>
    [`${i.quantity} x ${i.item_type_description ?? "item"}`, `${i.length ?? 0}x${i.width ?? 0}x${i.height ?? 0}`, `${i.weight_in_uom ?? 0}${c.som === "imperial" ? "lb" : "kg"}`, i.reference, i.dangerous_goods_items.length ? `DG ${i.dangerous_goods_items.map((d) => d.un_number).join("/")}` : null]
      .filter(Boolean)
      .join(" "),
  );
  const table: Array<[string, unknown]> = [
    ["id", c.id],
    ["state", c.state],
    ["consignment_number", c.consignment_number ?? "Pending"],
    ["reference", c.reference],
    ["custom_reference", c.custom_reference],
    ["despatch_date", c.despatch_date],
    ["estimated_delivery_date", c.estimated_delivery_date],
    ["actual_delivery_date", day(delivered[0]?.time)],
    ["deliver_at", c.deliver_at],
    ["deliver_by", c.deliver_by],
    ["pickup_at", c.pickup_at],
    ["special_instructions", c.special_instructions],
    ["charge_account", c.charge_account],
    ["carrier_code_by_carrier", c.carrier_code],
    ["service_code_by_carrier", extra.service?.codeByCarrier ?? c.service_code],
    ["service_name_by_carrier", extra.service?.nameByCarrier ?? c.service_name],
    ["carrier_name", c.carrier_name],
    ["service_name", c.service_name],
    ["service_rate", c.service_rate],
    ["emissions", describeEmissions(c)],
    ["return_type", c.return_type],
    // how it leaves: by itself (the account's auto despatch) or when someone despatches it
    ["despatch_type", extra.account ? (extra.account.autoDespatch ? "auto" : "manual") : null],
    ["sender_address", address(c.sender_address)],
    ["receiver_address", address(c.receiver_address)],
    ["receiver_name", c.receiver_address?.name],
    ["receiver_email", c.receiver_address?.email],
    ["items", items.join("; ")],
    ["pod_date", day(pod?.time)],
    ["total_quantity", c.items.reduce((n, i) => n + i.quantity, 0)],
    ["active", c.active],
    ["deleted_by", extra.deletedBy],
    ["url", `/tracking/${c.id}`],
    ["customer_despatch_enabled", extra.customerDespatchEnabled],
    ["site", `${site.name} (${site.code})`],
    ["carrier_account", extra.account?.number],
    ["service", c.service_code ? `${c.carrier_code} ${c.service_code}` : null],
    ["manifest", extra.manifest],
    ["created_by", extra.createdBy],
    ["created_at", when(row.createdAt)],
    ["updated_by", lastChange?.by],
    ["updated_at", when(row.updatedAt)],
  ];
  const qa = qaEditsAllowed(env().APP_ENV);
  const canEdit = isSuperAdmin(user);
  return {
    id: c.id,
    version: c.version,
    fields: table.map(([field, value]) => ({ field, value: text(value) })),
    values: {
      consignment_number: c.consignment_number,
      reference: c.reference,
      custom_reference: c.custom_reference,
      despatch_date: c.despatch_date,
      estimated_delivery_date: c.estimated_delivery_date,
      special_instructions: c.special_instructions,
      charge_account: c.charge_account,
      active: c.active,
      state: c.state,
    },
    screen: `${VARIANTS[variantOf(c)].path}/${c.id}`,
    site: { id: site.id, code: site.code, name: site.name, customer_id: site.customerId, href: `/customers/${site.customerId}/sites/${site.id}` },
    documents: documentsApplying(c).map((type) => ({ type, name: DOCUMENT_NAMES[type], href: `/api/retrieve_file?id=${c.id}&type=${type}` })),
    can_edit: canEdit,
    editable_fields: canEdit ? [...EDITABLE_FIELDS, ...(qa ? QA_FIELDS : [])] : [],
    states: CONSIGNMENT_STATES,
    time_zone: site.timezone,
    country: site.country,
  };
}

/** Who made and deleted it, its carrier account, manifest and the carrier's names for the service. */
async function related(db: DbOrTx, row: ConsignmentRow) {
  const name = (userId: number | null) =>
    userId
      ? db
          .select({ n: users.fullName })
          .from(users)
          .where(eq(users.id, userId))
          .then((r) => r[0]?.n ?? null)
      : Promise.resolve(null);
  const [createdBy, deletedBy, account, manifest, service, customerDespatchEnabled] = await Promise.all([
    name(row.createdBy),
    name(row.deletedBy),
    row.carrierAccountId
      ? db
          .select({ number: carrierAccounts.accountNumber, options: carrierAccounts.options })
          .from(carrierAccounts)
          .where(eq(carrierAccounts.id, row.carrierAccountId))
          .then((r) => (r[0] ? { number: r[0].number, autoDespatch: Boolean(r[0].options.auto_despatch) } : null))
      : Promise.resolve(null),
    row.manifestId
      ? db
          .select({ number: manifests.number })
          .from(manifests)
          .where(eq(manifests.id, row.manifestId))
          .then((r) => r[0]?.number ?? null)
      : Promise.resolve(null),
    row.serviceId
      ? db
          .select({ codeByCarrier: services.serviceCodeByCarrier, nameByCarrier: services.serviceNameByCarrier })
          .from(services)
          .where(eq(services.id, row.serviceId))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
    db
      .select({ enabled: customers.customerDespatchEnabled })
      .from(customers)
      .where(eq(customers.id, row.customerId))
      .then((r) => r[0]?.enabled ?? null),
  ]);
  return { createdBy, deletedBy, account, manifest, service, customerDespatchEnabled };
}

/** GET /api/item_changes?id: the item audit history, newest first. */
export const itemChangesOf = (db: DbOrTx, user: CurrentUser, id: number) => consignmentChangesOf(db, user, id, { items: true });

/** Everything the information page shows (the page without JavaScript; the modal asks the three calls). */
export async function informationPage(db: DbOrTx, user: CurrentUser, id: number) {
  const information = await consignmentInformation(db, user, id);
  const [changes, itemChanges] = await Promise.all([consignmentChangesOf(db, user, id), itemChangesOf(db, user, id)]);
  return { information, changes, itemChanges };
}

/** The columns a super admin's field writes, and how its audit row reads the value. */
const COLUMN: Record<string, keyof ConsignmentRow> = {
  consignment_number: "consignmentNumber",
  reference: "reference",
  custom_reference: "customReference",
  despatch_date: "despatchDate",
  estimated_delivery_date: "estimatedDeliveryDate",
  special_instructions: "specialInstructions",
  charge_account: "chargeAccount",
  active: "active",
  state: "state",
};

/**
 * PUT /api/consignments/{id} { superadmin: true, version, ...fields } and the page's Info Save: a
 * super admin corrects fields of any of the customer's consignments, despatched or not. The
 * state (QA-only) is set past the state machine, and only in qa or uat. Every change is audited
 * with the super admin as "by"; a stale version is refused, and so is a second save of the same
 * consignment by the same super admin within 5 s.
 */
export async function superadminUpdate(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<ConsignmentJson> {
  if (!isSuperAdmin(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const input = parseOrThrow(superadminUpdateSchema, raw);
  if (input.state !== undefined && !qaEditsAllowed(env().APP_ENV)) throw new AppError("forbidden", MESSAGES.qaOnly, { state: [MESSAGES.qaOnly] });
  // one transaction, the row locked: two saves of one version cannot both pass the version and 5 s checks
  return db.transaction(async (tx) => {
    const row = await loadRow(tx, user, id, { lock: true });
    if (input.version !== row.version) throw new AppError("stale", STALE_MESSAGE);
    // by the database's clock, so every web process agrees
    const [recent] = await tx
      .select({ id: consignmentChanges.id })
      .from(consignmentChanges)
      .where(
        and(
          eq(consignmentChanges.consignmentId, id),
          eq(consignmentChanges.changedBy, user.id),
          eq(consignmentChanges.field, SUPERADMIN_SAVE),
          gt(consignmentChanges.changedAt, sql`now() - interval '5 seconds'`),
        ),
      )
      .limit(1);
    if (recent) throw new AppError("conflict", MESSAGES.blocked);
    const changed = Object.entries(COLUMN).flatMap(([field, column]) => {
      const to = input[field as keyof typeof input];
      if (to === undefined) return [];
      const from = row[column];
      return text(from) === text(to) ? [] : [{ field, column, from: text(from), to }];
    });
    if (!changed.length) return toJson(tx, user, row);
    const [saved] = await tx
      .update(consignments)
      .set({ ...Object.fromEntries(changed.map((c) => [c.column, c.to])), version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(and(eq(consignments.id, id), eq(consignments.version, row.version)))
      .returning();
    if (!saved) throw new AppError("stale", STALE_MESSAGE);
    await tx.insert(consignmentChanges).values([
      ...changed.map((c) => ({ consignmentId: id, version: saved.version, field: c.field, fromValue: c.from, toValue: text(c.to), changedBy: user.id })),
      { consignmentId: id, version: saved.version, field: SUPERADMIN_SAVE, fromValue: null, toValue: changed.map((c) => c.field).join(", "), changedBy: user.id },
    ]);
    return toJson(tx, user, saved);
  });
}

export interface RetrievedFile {
  filename: string;
  html: () => string;
  zpl?: () => string;
  paper: PaperSize;
}

/**
 * GET /api/retrieve_file?id&type: a document printed for it, rendered by the print modules (the
 * same as /print/*). A document that does not apply answers 404 saying so.
 */
export async function retrieveFile(db: DbOrTx, user: CurrentUser, id: number, type: DocumentType): Promise<RetrievedFile> {
  assertCanSee(user);
  const c = await toJson(db, user, await loadRow(db, user, id));
  if (!documentsApplying(c).includes(type)) {
    const message = NOT_AVAILABLE[type];
    throw new AppError("not_found", message, { type: [message] });
  }
  const ids = (n: number) => new URLSearchParams({ ids: String(n) });
  const filename = `${type}-${c.consignment_number ?? c.id}`;
  switch (type) {
    case "labels": {
      const { labels, page } = await labelsOf(db, user, id);
      return { filename, html: () => renderLabelsHtml(labels, page), zpl: () => renderLabelsZpl(labels), paper: { width: page.width, height: page.height } };
    }
    case "connote": {
      const docs = await documentsOf(db, user, ids(id), "notes");
      return { filename, html: () => renderConsignmentNotesHtml(docs), paper: A4 };
    }
    case "dangerous_goods": {
      const docs = await documentsOf(db, user, ids(id), "dangerous_goods");
      return { filename, html: () => renderDangerousGoodsHtml(docs), paper: A4 };
    }
    case "manifest": {
      const list = await manifestsOf(db, user, ids(c.manifest_id!));
      return { filename, html: () => renderManifestsHtml(list), paper: A4 };
    }
  }
}
