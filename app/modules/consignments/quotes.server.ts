import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentItems, consignments, services } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { quoteReference } from "./rules";
import { todayIn } from "../calendar/site-time";

/** The quotes list covers the last 30 days (spec 1 sections 2 and 9). */
export const QUOTES_DAYS = 30;

export interface QuoteRow {
  id: number;
  quote_number: string;
  receiver: string | null;
  carrier_service: string | null;
  price: number | null;
  poa: boolean;
  weight: number;
  volume: number;
  /** the quote's site's system of measurement, for the units of weight and volume */
  som: "metric" | "imperial";
  /** YYYY-MM-DD at the quote's site; shown in its country's format */
  date: string;
  country: string;
  reference: string | null;
}

/** The user's active quotes of the last 30 days, newest first. */
export async function listQuotes(db: DbOrTx, user: CurrentUser, now = new Date()): Promise<QuoteRow[]> {
  if (!user.siteIds.length) return [];
  const since = new Date(now.getTime() - QUOTES_DAYS * 86_400_000);
  const totals = db
    .select({
      consignmentId: consignmentItems.consignmentId,
      weight: sql<string>`coalesce(sum(${consignmentItems.weightInUom}), 0)`.as("weight"),
      volume: sql<string>`coalesce(sum(${consignmentItems.totalVolume}), 0)`.as("volume"),
    })
    .from(consignmentItems)
    .groupBy(consignmentItems.consignmentId)
    .as("totals");
  const rows = await db
    .select({
      id: consignments.id,
      receiver: addresses.name,
      carrier: carriers.name,
      service: services.name,
      price: consignments.serviceRate,
      poa: consignments.poaCarrier,
      weight: totals.weight,
      volume: totals.volume,
      createdAt: consignments.createdAt,
      siteId: consignments.siteId,
      reference: consignments.reference,
    })
    .from(consignments)
    .leftJoin(addresses, eq(addresses.id, consignments.receiverAddressId))
    .leftJoin(services, eq(services.id, consignments.serviceId))
    .leftJoin(carriers, eq(carriers.id, services.carrierId))
    .leftJoin(totals, eq(totals.consignmentId, consignments.id))
    .where(
      and(
        eq(consignments.customerId, user.customer.id),
        inArray(consignments.siteId, user.siteIds),
        eq(consignments.isQuote, true),
        eq(consignments.active, true),
        gte(consignments.createdAt, since),
      ),
    )
    .orderBy(desc(consignments.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    quote_number: quoteReference(r.id),
    receiver: r.receiver,
    carrier_service: r.carrier ? `${r.carrier} ${r.service}` : null,
    price: r.price == null ? null : Number(r.price),
    poa: r.poa,
    weight: Number(r.weight ?? 0),
    volume: Number(r.volume ?? 0),
    som: user.sites.find((s) => s.id === r.siteId)?.som ?? "metric",
    // the day it was made at its site (a Melbourne morning is the UTC day before)
    date: todayIn(user.sites.find((s) => s.id === r.siteId)?.timezone ?? null, r.createdAt),
    country: user.sites.find((s) => s.id === r.siteId)?.country ?? "AUSTRALIA",
    reference: r.reference,
  }));
}
