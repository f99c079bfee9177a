/**
 * GET /api/bulk_upload_template: the header and example consignments that this user's file, uploaded
 * unchanged, makes: from one of their sites, on its next business day, of their first item type,
 * one consignment per kind of service the site offers (what each needs: nothing more, a pickup
 * time, a deliver-by or a delivery time), each naming that service and filling the times it needs.
 */
import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { itemTypes, sites } from "../../../db/schema";
import type { CurrentUser, SiteSummary } from "../auth/current-user.server";
import { nextBusinessDay } from "../calendar/business-days";
import { todayIn } from "../calendar/site-time";
import { customReferenceChoices } from "../consignments/custom-reference.server";
import { ratingPayloadOf } from "../consignments/form";
import { siteSenderAddress } from "../consignments/site-sender";
import { rateWithCosts } from "../rating/rating.server";
import { ratingData } from "../rating/rating-data.server";
import { exampleCells, templateCsv } from "./columns";

type Needs = { pickup: boolean; deliver_by: boolean; deliver_at: boolean };

/** A receiver in the site's country whom the demo's and a real deployment's localities know. */
const RECEIVERS: Record<string, Record<string, string>> = {
  AUSTRALIA: { receiver_locality: "SYDNEY", receiver_postcode: "2000", receiver_region: "NSW", receiver_country: "AUSTRALIA" },
  "NEW ZEALAND": { receiver_locality: "AUCKLAND", receiver_sublocality: "AUCKLAND CENTRAL", receiver_postcode: "1010", receiver_region: "", receiver_country: "NEW ZEALAND" },
  "UNITED STATES OF AMERICA": { receiver_locality: "SAN FRANCISCO", receiver_postcode: "94103", receiver_region: "CA", receiver_country: "UNITED STATES OF AMERICA", receiver_address_line_1: "1 Market Street" },
};

/** DD/MM/YYYY, as the file writes dates */
const fileDate = (iso: string) => iso.split("-").reverse().join("/");

const needsKey = (n: Needs) => `${n.pickup}|${n.deliver_by}|${n.deliver_at}`;

/** One service per kind (what it needs), those the example can be carried by, in the order rating lists them. */
async function servicesByKind(db: DbOrTx, user: CurrentUser, site: SiteSummary, example: Record<string, string>, item: { id: number | null; cells: Record<string, string> }) {
  const kinds = new Map<string, { carrier: string; service: string; needs: Needs }>();
  try {
    const [row] = await db.select().from(sites).where(eq(sites.id, site.id));
    const sender = siteSenderAddress(row!);
    const response = await rateWithCosts(
      db,
      user,
      ratingPayloadOf({
        despatch_date: example.despatch_iso!,
        site_code: site.code,
        account_payable: "sender",
        return_type: null,
        items: [{ quantity: 1, item_type_id: item.id, length: Number(item.cells.length), width: Number(item.cells.width), height: Number(item.cells.height), weight_in_uom: Number(item.cells.weight), dangerous_goods_items: [] }],
        receiver_address: { locality: example.receiver_locality!, sublocality: example.receiver_sublocality || null, postcode: example.receiver_postcode!, region: example.receiver_region || null, country: example.receiver_country!, address_type: "business" },
        sender_address: { ...sender, country: sender.country ?? site.country, address_type: "business" },
      }),
    );
    for (const r of response.carriers) {
      const needs = { pickup: r.timeslots.pickup, deliver_by: r.timeslots.deliver_by, deliver_at: r.timeslots.deliver_at };
      if (!kinds.has(needsKey(needs))) kinds.set(needsKey(needs), { carrier: r.code, service: r.service_code, needs });
    }
  } catch {
    // nothing can rate the example (no rates loaded yet): the services the site offers, unpriced
  }
  if (kinds.size === 0) {
    for (const o of await (await ratingData(db)).offered(site.id)) {
      const needs = { pickup: o.service.pickupAt || o.carrier.pickupAt, deliver_by: o.service.deliverBy || o.carrier.deliverBy, deliver_at: o.service.deliverAt || o.carrier.deliverAt };
      if (!kinds.has(needsKey(needs))) kinds.set(needsKey(needs), { carrier: o.carrier.code, service: o.service.code, needs });
    }
  }
  return [...kinds.values()];
}

/** The template for this user: the header and one example consignment per kind of service. */
export async function bulkUploadTemplate(db: DbOrTx, user: CurrentUser, now = new Date()): Promise<string> {
  const site = user.sites.find((s) => s.id === user.defaultSiteId) ?? user.sites[0];
  if (!site) return templateCsv([exampleCells()]);
  const day = nextBusinessDay(todayIn(site.timezone, now), site.country, site.region);
  const [type] = await db.select().from(itemTypes).where(eq(itemTypes.customerId, user.customer.id)).orderBy(asc(itemTypes.sequence), asc(itemTypes.id)).limit(1);
  const size = (v: string | null | undefined, fallback: string) => (v && Number(v) > 0 ? String(Math.round(Number(v))) : fallback);
  const item = {
    id: type?.id ?? null,
    cells: {
      ...exampleCells("item"),
      ...(type ? { item_type: type.description || type.name, length: size(type.length, "40"), width: size(type.width, "30"), height: size(type.height, "20"), weight: size(type.weight, "5") } : {}),
    },
  };
  const choices = await customReferenceChoices(db, user);
  const consignment = {
    ...exampleCells("consignment"),
    ...(RECEIVERS[site.country] ?? RECEIVERS.AUSTRALIA),
    site_code: site.code,
    despatch_date: fileDate(day),
    custom_reference: choices?.[0]?.value ?? "",
  };
  const kinds = await servicesByKind(db, user, site, { ...consignment, despatch_iso: day }, item);
  if (kinds.length === 0) return templateCsv([{ ...consignment, ...item.cells }, item.cells]);

  // collected on the despatch date; delivered on the business day after it
  const deliverDay = nextBusinessDay(day, site.country, site.region);
  const time = (needed: boolean, on: string, hhmm: string) => (needed ? `${fileDate(on)} ${hhmm}` : "");
  const rows = kinds.flatMap((k, i) => {
    const head = {
      ...consignment,
      ...item.cells,
      reference: `EXAMPLE-${i + 1}`,
      carrier_code: k.carrier,
      service_code: k.service,
      pickup_at: time(k.needs.pickup, day, "10:00"),
      deliver_by: time(k.needs.deliver_by, deliverDay, "17:00"),
      deliver_at: time(k.needs.deliver_at, deliverDay, "14:00"),
    };
    // the first consignment shows a second item line: a row without a site code
    return i === 0 ? [head, item.cells] : [head];
  });
  return templateCsv(rows);
}
