/**
 * A user's own sites, in name order: what the consignment screen offers on every view (issue 32).
 * Kept in memory per set of sites by each web process (db/kept.server.ts, decision 043) and
 * forgotten by every change to any site: migration 0038's statement trigger on sites says "all".
 */
import { asc, inArray } from "drizzle-orm";
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";

type SiteRow = typeof sites.$inferSelect;

const keptSites = keptPer<string, readonly SiteRow[]>((payload, kept) => {
  if (payload === "all") kept.clear();
});

/**
 * The user's sites (the user's own ids, so no other customer's), each frozen and shared: callers
 * copy what they would change. With the request's mark, no round trip once the request has synced.
 */
export async function sitesOfUser(db: DbOrTx, user: Pick<CurrentUser, "siteIds">, since?: FeedMark): Promise<readonly SiteRow[]> {
  if (!user.siteIds.length) return [];
  const key = [...user.siteIds].sort((a, b) => a - b).join(",");
  const rows = await readThrough(keptSites(changeFeedOf(db)), key, () => db.select().from(sites).where(inArray(sites.id, user.siteIds)).orderBy(asc(sites.name)), since);
  return rows!;
}
