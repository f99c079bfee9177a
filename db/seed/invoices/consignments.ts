/**
 * The demo's despatched consignments that its carrier invoices bill (issue 18 item 9): saved and
 * rated in process as the demo despatcher would (saveConsignment), then moved on as the despatch
 * back end would, with a number the account's range issues and a despatch date in the past
 * fortnight. Their stored rating_detail is what the invoice files are written from.
 */
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../client.server";
import { carrierAccounts, consignments, itemTypes, users } from "../../schema";
import { loadCurrentUser } from "../../../app/modules/auth/current-user.server";
import { plusDays } from "../../../app/modules/calendar/dates";
import { todayIn } from "../../../app/modules/calendar/site-time";
import { saveConsignment } from "../../../app/modules/consignments/save.server";
import type { RatingDetail } from "../../../app/modules/rating/engine";
import { allocateConsignmentNumber } from "../../../app/modules/numbers/numbers.server";

const SENDERS = {
  MEL: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" },
  SYD: { name: "Sydney DC", address_line_1: "45 Victoria Street", locality: "WETHERILL PARK", postcode: "2164", region: "NSW", country: "AUSTRALIA" },
} as const;
const RECEIVERS = {
  BNE: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" },
  PER: { name: "Perth Outdoor Supplies", address_line_1: "22 Great Eastern Highway", locality: "RIVERVALE", postcode: "6103", region: "WA", country: "AUSTRALIA" },
  ADL: { name: "Adelaide Office Co", address_line_1: "80 Grenfell Street", locality: "ADELAIDE", postcode: "5000", region: "SA", country: "AUSTRALIA" },
  HBA: { name: "Hobart Marine", address_line_1: "3 Salamanca Place", locality: "HOBART", postcode: "7000", region: "TAS", country: "AUSTRALIA" },
} as const;

const DIMENSIONS = { Carton: { length: 40, width: 30, height: 30 }, Pallet: { length: 120, width: 120, height: 150 }, Satchel: { length: 35, width: 25, height: 5 } } as const;

interface Planned {
  carrier: "NORTHLINE" | "auspost" | "SIMEX";
  service: string;
  site: keyof typeof SENDERS;
  to: keyof typeof RECEIVERS;
  item: "Carton" | "Pallet" | "Satchel";
  quantity: number;
  /** the line's weight in kg */
  kg: number;
  /** days before today (Melbourne) it went */
  daysAgo: number;
}

/** Three of each carrier: a few lines per invoice, and few saves (the seed runs at every e2e start). */
export const PLANNED: Planned[] = [
  { carrier: "NORTHLINE", service: "GEN", site: "MEL", to: "BNE", item: "Pallet", quantity: 1, kg: 280, daysAgo: 9 },
  { carrier: "NORTHLINE", service: "GEN", site: "MEL", to: "ADL", item: "Carton", quantity: 6, kg: 42, daysAgo: 9 },
  { carrier: "NORTHLINE", service: "RXP", site: "SYD", to: "PER", item: "Pallet", quantity: 2, kg: 610, daysAgo: 8 },
  { carrier: "auspost", service: "PP", site: "MEL", to: "BNE", item: "Satchel", quantity: 2, kg: 2.5, daysAgo: 8 },
  { carrier: "auspost", service: "EXP", site: "SYD", to: "ADL", item: "Carton", quantity: 1, kg: 6, daysAgo: 7 },
  { carrier: "auspost", service: "PP", site: "MEL", to: "HBA", item: "Carton", quantity: 3, kg: 21, daysAgo: 6 },
  { carrier: "SIMEX", service: "ONT", site: "MEL", to: "BNE", item: "Carton", quantity: 2, kg: 12, daysAgo: 6 },
  { carrier: "SIMEX", service: "ONT", site: "SYD", to: "ADL", item: "Carton", quantity: 5, kg: 38, daysAgo: 5 },
  { carrier: "SIMEX", service: "ONT", site: "MEL", to: "PER", item: "Satchel", quantity: 3, kg: 3, daysAgo: 5 },
];

export interface DemoConsignment {
  id: number;
  carrier: Planned["carrier"];
  number: string;
  despatchDate: string;
  accountNumber: string;
  site: keyof typeof SENDERS;
  sender: (typeof SENDERS)[keyof typeof SENDERS];
  receiver: (typeof RECEIVERS)[keyof typeof RECEIVERS];
  serviceCode: string;
  quantity: number;
  detail: RatingDetail;
}

/** Saves, rates and "despatches" the planned consignments; answers them with their rating. */
export async function seedDespatchedConsignments(db: DbOrTx): Promise<DemoConsignment[]> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, "despatcher@example.com"));
  const despatcher = row && (await loadCurrentUser(db, row.id));
  if (!despatcher) throw new Error("the demo despatcher is missing");
  const types = await db.select({ id: itemTypes.id, name: itemTypes.name }).from(itemTypes).where(eq(itemTypes.customerId, despatcher.customer.id));
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  const today = todayIn("Australia/Melbourne");
  // a save takes only today or later: saved for the next weekday, then dated back as despatched
  const saveDate = plusDays(today, 1);
  const made: DemoConsignment[] = [];
  for (const p of PLANNED) {
    const { consignment } = await saveConsignment(db, despatcher, null, {
      site_code: p.site,
      reference: `PO-${4100 + made.length}`,
      despatch_date: saveDate,
      sender_address: SENDERS[p.site],
      receiver_address: RECEIVERS[p.to],
      items: [{ quantity: p.quantity, item_type_id: typeId(p.item), ...DIMENSIONS[p.item], weight_in_uom: String(p.kg) }],
      carrier_code: p.carrier,
      service_code: p.service,
      ...(p.carrier === "SIMEX" ? { pickup_at: `${saveDate} 10:00` } : {}),
    });
    const [saved] = await db.select().from(consignments).where(eq(consignments.id, consignment.id));
    if (!saved?.carrierAccountId || !saved.ratingDetail || saved.state !== "despatchable") {
      throw new Error(`demo consignment ${p.carrier} ${p.service} ${p.site}-${p.to} did not rate: ${JSON.stringify(saved?.errors)}`);
    }
    const number = await allocateConsignmentNumber(db, saved.carrierAccountId);
    const [account] = await db.select({ number: carrierAccounts.accountNumber }).from(carrierAccounts).where(eq(carrierAccounts.id, saved.carrierAccountId));
    const despatchDate = plusDays(today, -p.daysAgo);
    await db.update(consignments).set({ state: "despatched", consignmentNumber: number, despatchDate }).where(eq(consignments.id, saved.id));
    made.push({
      id: saved.id,
      carrier: p.carrier,
      number,
      despatchDate,
      accountNumber: account!.number,
      site: p.site,
      sender: SENDERS[p.site],
      receiver: RECEIVERS[p.to],
      serviceCode: p.service,
      quantity: p.quantity,
      detail: saved.ratingDetail as unknown as RatingDetail,
    });
  }
  return made;
}
