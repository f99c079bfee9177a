/**
 * Demo invoicing (issue 19 points 5 to 7; decision 020-invoicing): after the demo's reconcile step,
 * one customer invoice made from the oldest reconciled line (so /invoices_receivable shows a real
 * one, with its PDF), and one WEEKLY schedule (Monday 09:00, Sydney) for the last of the
 * reconciled lines still invoiceable (so the Schedules modal shows a real one). Two reconciled lines
 * are left invoiceable, for the Send invoice modal; the schedule holds one of them only, so the
 * modal keeps a line after it runs (an e2e run spanning Monday 09:00 in Sydney found none when it
 * held both). Idempotent: a database with a receivable invoice gets no second one, and one with a
 * schedule no second schedule.
 */
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../client.server";
import { invoiceDetails, invoices, invoicingSchedules, users } from "../../schema";
import { runInvoicing } from "../../../app/modules/invoicing/invoice.server";
import { invoiceableSql } from "../../../app/modules/invoicing/invoiceable.server";
import { nextRunAt } from "../../../app/modules/invoicing/schedule";
import { createMailer, type Mailer } from "../../../app/modules/mail/mailer.server";
import { createRenderer, type Renderer } from "../../../app/modules/printing/renderer.server";

/** lines kept invoiceable for the Send invoice modal (and the e2e spec that invoices them) */
const KEEP_INVOICEABLE = 2;

export async function seedDemoInvoicing(db: Db, services: { mailer?: Mailer; renderer?: Renderer; now?: Date } = {}): Promise<{ invoiceId: number | null; scheduleId: number | null }> {
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
  const lines = async () =>
    (await db.select({ id: invoiceDetails.id }).from(invoiceDetails).where(invoiceableSql).orderBy(asc(invoiceDetails.despatchDate), asc(invoiceDetails.id))).map((l) => l.id);
  let invoiceId: number | null = null;
  const [made] = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.accountingType, "receivable")).limit(1);
  const ready = await lines();
  if (!made && ready.length > KEEP_INVOICEABLE) {
    const ownRenderer = services.renderer ? null : createRenderer();
    try {
      const result = await runInvoicing(
        { db, mailer: services.mailer ?? createMailer(db, { from: "demo@freightdesk.local" }), renderer: services.renderer ?? ownRenderer! },
        { invoiceDetailIds: ready.slice(0, ready.length - KEEP_INVOICEABLE), userId: admin?.id ?? null },
      );
      invoiceId = result.invoices[0]?.id ?? null;
    } finally {
      await ownRenderer?.close();
    }
  }
  let scheduleId: number | null = null;
  const [scheduled] = await db.select({ id: invoicingSchedules.id }).from(invoicingSchedules).limit(1);
  const left = await lines();
  if (!scheduled && left.length) {
    const timing = { period: "WEEKLY" as const, day: "Monday" as const, hour: "09:00", time_zone: "Australia/Sydney" as const };
    const [row] = await db
      .insert(invoicingSchedules)
      .values({ period: timing.period, day: timing.day, hour: timing.hour, timeZone: timing.time_zone, invoiceDetailIds: left.slice(-1), nextRunAt: nextRunAt(timing, services.now ?? new Date()), createdById: admin?.id ?? null })
      .returning({ id: invoicingSchedules.id });
    scheduleId = row!.id;
  }
  return { invoiceId, scheduleId };
}
