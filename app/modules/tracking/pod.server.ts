/**
 * GET /api/pod/{eventId}: the proof of delivery the product drew for an event (the simulated
 * carrier's), for users who may see its consignment. A carrier's own POD is its pod_url, linked
 * directly; this answers only for drawn ones.
 */
import { and, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carrierAccounts, carriers, consignments, sites, trackingEvents } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { localTime } from "../calendar/site-time";
import { notFound } from "../../utils/errors";
import { podSvg } from "./pod";
import { POD_ROUTE } from "./record.server";
import { trackingScope } from "./scope";
import { zoneOf } from "./subjects.server";

/** The card of a drawn POD, for consignments matching `where` (a user's scope; a public link's, later). */
export async function drawnPod(db: DbOrTx, eventId: number, where: ReturnType<typeof trackingScope>): Promise<string> {
  const receiver = alias(addresses, "receiver");
  const [row] = await db
    .select({
      number: consignments.consignmentNumber,
      eventTime: trackingEvents.eventTime,
      podUrl: trackingEvents.podUrl,
      carrierName: carriers.name,
      siteZone: sites.timezone,
      receiver: { name: receiver.name, locality: receiver.locality, region: receiver.region, country: receiver.country, timezone: receiver.timezone },
    })
    .from(trackingEvents)
    .innerJoin(consignments, eq(consignments.id, trackingEvents.consignmentId))
    .innerJoin(sites, eq(sites.id, consignments.siteId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .leftJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .leftJoin(receiver, eq(receiver.id, consignments.receiverAddressId))
    .where(and(eq(trackingEvents.id, eventId), where));
  if (!row || row.podUrl !== `${POD_ROUTE}${eventId}`) throw notFound("Proof of delivery");
  const r = row.receiver;
  const country = r?.country ?? "AUSTRALIA";
  return podSvg({
    carrierName: row.carrierName ?? "Carrier",
    consignmentNumber: row.number ?? "",
    receiverName: r?.name ?? "Receiver",
    place: [r?.locality, r?.region].filter(Boolean).join(" "),
    deliveredAt: localTime(row.eventTime, zoneOf({ timezone: r?.timezone ?? null, country, region: r?.region ?? null }, row.siteZone), country),
  });
}

export const podForUser = (db: DbOrTx, user: CurrentUser, eventId: number) => drawnPod(db, eventId, trackingScope(user));
