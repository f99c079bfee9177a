/**
 * The consignment documents of a batch (GET /print/consignment_notes?ids= and
 * /print/dangerous_goods_documents?ids=): the user's consignments, each numbered already (its
 * labels printed, or allocated without printing). Reading only: a GET changes nothing.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments, manifests, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { getConsignment } from "../consignments/consignments.server";
import { localTime } from "../calendar/site-time";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import type { DocumentConsignment } from "../../../print-templates/documents/Documents";
import type { ManifestDocument } from "../../../print-templates/documents/Manifest";
import { recordId } from "../../utils/ids";

const idsSchema = z.object({
  ids: z
    .string({ error: "ids are required" })
    .transform((s) => s.split(",").filter(Boolean).map(Number))
    .pipe(z.array(recordId("ids must be consignment ids")).min(1, "ids are required").max(200, "At most 200 at a time")),
});

export async function documentsOf(db: DbOrTx, user: CurrentUser, query: URLSearchParams, kind: "notes" | "dangerous_goods"): Promise<DocumentConsignment[]> {
  const { ids } = parseOrThrow(idsSchema, Object.fromEntries(query));
  const list = [];
  for (const id of [...new Set(ids)]) list.push(await getConsignment(db, user, id));
  const unnumbered = list.filter((c) => !c.consignment_number);
  if (unnumbered.length) {
    const message = `Print the labels first: consignment ${unnumbered.map((c) => c.id).join(", ")} has no number yet.`;
    throw new AppError("conflict", message, { base: [message] });
  }
  const chosen = kind === "dangerous_goods" ? list.filter((c) => c.items.some((i) => i.dangerous_goods_items.length)) : list;
  if (!chosen.length) throw new AppError("conflict", "None of these consignments carries dangerous goods", { base: ["None of these consignments carries dangerous goods"] });
  const siteRows = await db
    .select({ id: sites.id, name: sites.dgContactName, phone: sites.dgContactPhone })
    .from(sites)
    .where(
      inArray(
        sites.id,
        chosen.map((c) => c.site_id),
      ),
    );
  const contact = new Map(siteRows.map((s) => [s.id, { name: s.name, phone: s.phone }]));
  return chosen.map((c) => ({ c, dgContact: contact.get(c.site_id) ?? { name: null, phone: null } }));
}

/**
 * GET /print/despatch_manifest_report?ids=: the user's manifests (customer and sites scoped) with
 * their consignments, in consignment number order.
 */
export async function manifestsOf(db: DbOrTx, user: CurrentUser, query: URLSearchParams): Promise<ManifestDocument[]> {
  const { ids } = parseOrThrow(idsSchema, Object.fromEntries(query));
  if (!user.siteIds.length) throw new AppError("not_found", "Manifest not found");
  const rows = await db
    .select({ m: manifests, carrierName: carriers.name, accountNumber: carrierAccounts.accountNumber, siteName: sites.name, timezone: sites.timezone, country: sites.country })
    .from(manifests)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, manifests.carrierAccountId))
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, manifests.siteId))
    .where(and(inArray(manifests.id, ids), eq(manifests.customerId, user.customer.id), inArray(manifests.siteId, user.siteIds)));
  if (rows.length !== new Set(ids).size) throw new AppError("not_found", "Manifest not found");
  const members = await db
    .select({ id: consignments.id, manifestId: consignments.manifestId })
    .from(consignments)
    .where(inArray(consignments.manifestId, ids))
    .orderBy(asc(consignments.consignmentNumber));
  const out: ManifestDocument[] = [];
  for (const id of [...new Set(ids)]) {
    const r = rows.find((x) => x.m.id === id)!;
    const list = [];
    for (const c of members.filter((x) => x.manifestId === id)) list.push(await getConsignment(db, user, c.id));
    out.push({
      number: r.m.number,
      carrierName: r.carrierName,
      accountNumber: r.accountNumber,
      siteName: r.siteName,
      // as the site reads it, as /manifests shows it
      despatchTime: r.m.despatchTime ? localTime(r.m.despatchTime, r.timezone, r.country) : null,
      failedDespatch: r.m.failedDespatch,
      consignments: list,
    });
  }
  return out;
}
