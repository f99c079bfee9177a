/**
 * Pausing an endpoint whose delivery was given up after the retry window (docs/decisions/039), and
 * telling its owners: the customer's admins (super despatchers) for an endpoint the customer made,
 * the provider's admins for one staff made. The pause and its e-mails commit together.
 */
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.server";
import { users, webhookEndpoints } from "../../../db/schema";
import type { Mailer } from "../mail/mailer.server";
import { env } from "../../utils/env.server";
import { webhookSeams } from "./seams.server";

export const PAUSED_REASON = "Paused: a delivery still failed after 24 hours of retries.";

export async function pauseEndpoints(db: Db, mailer: Mailer, ids: number[]): Promise<number[]> {
  const now = webhookSeams.now();
  return db.transaction(async (tx) => {
    // only an endpoint still active: of two processes giving up at once, one pauses and tells
    const paused = await tx
      .update(webhookEndpoints)
      .set({ active: false, pausedReason: PAUSED_REASON, pausedAt: now, updatedAt: now })
      .where(and(inArray(webhookEndpoints.id, ids), eq(webhookEndpoints.active, true)))
      .returning();
    for (const endpoint of paused) {
      const owners = await tx
        .select({ email: users.email })
        .from(users)
        .where(
          and(
            eq(users.disabled, false),
            isNull(users.lockedAt),
            endpoint.createdByStaff ? inArray(users.role, ["admin", "super_admin"]) : and(eq(users.customerId, endpoint.customerId), eq(users.superDespatcher, true), eq(users.role, "despatcher")),
          ),
        )
        .orderBy(sql`lower(${users.email})`);
      const link = `${env().APP_URL ?? ""}/webhooks/${endpoint.id}`;
      for (const { email } of owners) {
        await mailer.send(
          {
            to: email,
            subject: "Webhook endpoint paused",
            text: [
              `The webhook endpoint ${endpoint.url} was paused: a delivery to it still failed after 24 hours of retries.`,
              "Its later events are kept and go once it is made active again. Its delivery log shows each attempt's answer:",
              link,
            ].join("\n\n"),
          },
          tx,
        );
      }
    }
    return paused.map((e) => e.id);
  });
}
