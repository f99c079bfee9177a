/** GET /api/bulk_upload_mappings: the columns a file may use, or (type=services) the carrier and service codes the user may name. */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, services, siteServices, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canBulkUpload } from "../auth/roles";
import { forbidden } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { mappingsJson } from "./columns";

const querySchema = z.object({ type: z.enum(["columns", "services"], { error: "Type must be columns or services" }).optional() });

export function assertMayBulkUpload(user: CurrentUser) {
  if (!canBulkUpload(user)) throw forbidden("You may not bulk upload.");
}

export async function bulkUploadMappings(db: DbOrTx, user: CurrentUser, query: Record<string, string>) {
  assertMayBulkUpload(user);
  const { type } = parseOrThrow(querySchema, query);
  if (type !== "services") return mappingsJson();
  const rows = user.siteIds.length
    ? await db
        .selectDistinct({
          site_code: sites.code,
          carrier_code: carriers.code,
          carrier_name: carriers.name,
          service_code: services.code,
          service_name: services.name,
          // the time columns a consignment of this service must fill (the service's or its carrier's setting)
          needs_pickup_at: sql<boolean>`(${services.pickupAt} or ${carriers.pickupAt})`,
          needs_deliver_by: sql<boolean>`(${services.deliverBy} or ${carriers.deliverBy})`,
          needs_deliver_at: sql<boolean>`(${services.deliverAt} or ${carriers.deliverAt})`,
        })
        .from(siteServices)
        .innerJoin(sites, eq(sites.id, siteServices.siteId))
        .innerJoin(services, eq(services.id, siteServices.serviceId))
        .innerJoin(carriers, eq(carriers.id, services.carrierId))
        .where(and(eq(sites.customerId, user.customer.id), inArray(sites.id, user.siteIds), eq(siteServices.enabled, true)))
        .orderBy(asc(sites.code), asc(carriers.code), asc(services.code))
    : [];
  return {
    services: rows.map(({ needs_pickup_at, needs_deliver_by, needs_deliver_at, ...r }) => ({
      ...r,
      needs: [needs_pickup_at && "pickup_at", needs_deliver_by && "deliver_by", needs_deliver_at && "deliver_at"].filter((n): n is string => Boolean(n)),
    })),
  };
}
