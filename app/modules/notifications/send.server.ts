/**
 * Sending notifications (issue 14 item 7): when consignments enter a trigger state (despatch, or
 * carriers' tracking events), the change queues a `notifications.send` job in its transaction;
 * the job finds each consignment's applicable configs (resolve.ts), renders their templates with
 * the consignment's values and sends them through the mailer (e-mail types) or the SMS sender
 * (phone types). A delivery row is written before anything is sent, under a unique key, so a
 * replay, a retried job or two workers send each notification at most once.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carrierAccounts, carriers, consignments, customers, notificationConfigs, notificationDeliveries, notificationTypes, services, sites, trackingEvents } from "../../../db/schema";
import { formatDisplayDate } from "../calendar/display-date";
import { adapterFor } from "../carriers/adapters.server";
import type { Mailer } from "../mail/mailer.server";
import { publicTrackingUrl, stateWords } from "../tracking/public-link";
import { carrierOf } from "../tracking/track-trace.server";
import { env } from "../../utils/env.server";
import { rowsOf } from "../../utils/sql-rows";
import { applicableConfigs, dedupeKey, fitLength, itemsToSend, type Item } from "./resolve";
import { createSmsSender, phoneForSms, type SmsSender } from "./sms.server";
import type { TemplateValues } from "../templates/tags";
import { renderTemplate } from "../templates/templates.server";
import { customWording, frameNotification } from "../custom-emails/wording.server";

/** What a change queues: the states consignments entered, and the tracking events it stored. */
export const notificationsPayload = z.object({
  changes: z.array(z.object({ consignmentId: z.number().int().positive(), state: z.string().max(40) })).max(20_000),
  eventIds: z.array(z.number().int().positive()).max(20_000).default([]),
});
export type NotificationsPayload = z.input<typeof notificationsPayload>;

export interface SendResult {
  sent: number;
  skipped: number;
  failed: number;
  /** already sent before (a replay, a job delivered twice) */
  duplicates: number;
}

export const sendMessage = (r: SendResult) => `Sent ${r.sent} notification(s); ${r.skipped} skipped (no e-mail or phone), ${r.failed} failed, ${r.duplicates} already sent.`;

async function consignmentContext(db: DbOrTx, ids: number[]) {
  const sender = alias(addresses, "sender");
  const receiver = alias(addresses, "receiver");
  return db
    .select({
      id: consignments.id,
      customerId: consignments.customerId,
      siteId: consignments.siteId,
      carrierAccountId: consignments.carrierAccountId,
      number: consignments.consignmentNumber,
      reference: consignments.reference,
      customReference: consignments.customReference,
      itemReferences: consignments.itemReferences,
      specialInstructions: consignments.specialInstructions,
      eta: consignments.estimatedDeliveryDate,
      token: consignments.publicTrackingToken,
      sendAll: sql<boolean>`coalesce((${customers.options} ->> 'send_all_tracking_updates')::boolean, false)`,
      sitePhone: sites.csPhoneNumber,
      serviceName: services.name,
      carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options },
      sender: { name: sender.name, locality: sender.locality },
      receiver: {
        name: receiver.name,
        line1: receiver.addressLine1,
        line2: receiver.addressLine2,
        locality: receiver.locality,
        region: receiver.region,
        postcode: receiver.postcode,
        country: receiver.country,
        phone: receiver.phone,
        email: receiver.email,
      },
    })
    .from(consignments)
    .innerJoin(customers, eq(customers.id, consignments.customerId))
    .innerJoin(sites, eq(sites.id, consignments.siteId))
    .leftJoin(services, eq(services.id, consignments.serviceId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .leftJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .leftJoin(sender, eq(sender.id, consignments.senderAddressId))
    .leftJoin(receiver, eq(receiver.id, consignments.receiverAddressId))
    .where(inArray(consignments.id, ids));
}

type Context = Awaited<ReturnType<typeof consignmentContext>>[number];

/** The dynamic tags' values for one consignment and the state it entered (spec 2 section 9). */
export function tagValues(c: Context, state: string, baseUrl: string): TemplateValues {
  const r = c.receiver;
  const carrier = carrierOf(c.carrier);
  const country = r?.country ?? "AUSTRALIA";
  return {
    receiver_name: r?.name ?? "",
    receiver_address: [r?.line1, r?.line2, [r?.locality, r?.region, r?.postcode].filter(Boolean).join(" ")].filter(Boolean).join(", "),
    receiver_phone: r?.phone ?? "",
    sender_name: c.sender?.name ?? "",
    sender_locality: c.sender?.locality ?? "",
    consignment_state: stateWords(state as Parameters<typeof stateWords>[0]),
    carrier_name: carrier?.name ?? "",
    service_name: c.serviceName ?? "",
    consignment_reference: c.reference ?? "",
    custom_reference: c.customReference ?? "",
    consignment_number: c.number ?? "",
    line_item_references: c.itemReferences ?? "",
    estimated_delivery_date: c.eta ? formatDisplayDate(c.eta, country) : "",
    carrier_web_url: (carrier && adapterFor(carrier).trackingUrl(c.number)) ?? "",
    public_tracking_url: publicTrackingUrl(baseUrl, c.token),
    sender_site_phone: c.sitePhone ?? "",
    special_instructions: c.specialInstructions ?? "",
  };
}

/** Where links in notifications point: APP_URL, else this server's own address. */
const linkBaseForJobs = () => env().APP_URL ?? `http://localhost:${env().PORT}`;

/** The dynamic tags' values of one consignment (another e-mail's custom wording: the return e-mail); null when there is none. */
export async function templateValuesOf(db: DbOrTx, consignmentId: number, state: string, baseUrl = linkBaseForJobs()): Promise<TemplateValues | null> {
  const [c] = await consignmentContext(db, [consignmentId]);
  return c ? tagValues(c, state, baseUrl) : null;
}

export async function sendNotifications(deps: { db: DbOrTx; mailer: Mailer; sms?: SmsSender; baseUrl?: string }, raw: NotificationsPayload): Promise<SendResult> {
  const { db, mailer } = deps;
  const sms = deps.sms ?? createSmsSender(db, { gatewayUrl: env().SMS_GATEWAY_URL });
  const baseUrl = deps.baseUrl ?? linkBaseForJobs();
  const payload = notificationsPayload.parse(raw);
  const result: SendResult = { sent: 0, skipped: 0, failed: 0, duplicates: 0 };

  const events = payload.eventIds.length
    ? await db.select({ id: trackingEvents.id, consignmentId: trackingEvents.consignmentId, event: trackingEvents.event }).from(trackingEvents).where(inArray(trackingEvents.id, payload.eventIds))
    : [];
  const ids = [...new Set([...payload.changes.map((c) => c.consignmentId), ...events.map((e) => e.consignmentId)])];
  if (!ids.length) return result;
  const contexts = new Map((await consignmentContext(db, ids)).map((c) => [c.id, c]));
  const items = itemsToSend(
    payload.changes.filter((c) => contexts.has(c.consignmentId)),
    events.filter((e) => contexts.has(e.consignmentId)),
    (id) => Boolean(contexts.get(id)?.sendAll),
  );
  if (!items.length) return result;

  const customerIds = [...new Set([...contexts.values()].map((c) => c.customerId))];
  const configs = await db
    .select({
      id: notificationConfigs.id,
      parentType: notificationConfigs.parentType,
      parentId: notificationConfigs.parentId,
      notificationTypeId: notificationConfigs.notificationTypeId,
      consignmentState: notificationConfigs.consignmentState,
      enabled: notificationConfigs.enabled,
      template: notificationConfigs.template,
      field: notificationTypes.fieldName,
      typeName: notificationTypes.name,
      maxLength: notificationTypes.maxLength,
    })
    .from(notificationConfigs)
    .innerJoin(notificationTypes, eq(notificationTypes.id, notificationConfigs.notificationTypeId))
    .where(and(inArray(notificationConfigs.customerId, customerIds), inArray(notificationConfigs.consignmentState, [...new Set(items.map((i) => i.state))])));

  for (const item of items) {
    const c = contexts.get(item.consignmentId)!;
    for (const config of applicableConfigs(configs, { customerId: c.customerId, siteId: c.siteId, carrierAccountId: c.carrierAccountId }, item.state)) {
      await deliver(item, config, c);
    }
  }
  return result;

  async function deliver(item: Item, config: (typeof configs)[number], c: Context) {
    const recipient = config.field === "email" ? (c.receiver?.email?.trim() || null) : phoneForSms(c.receiver?.phone);
    // claimed before sending: whoever inserts the key sends, anyone after finds it taken
    const [claimed] = rowsOf<{ id: number }>(
      await db.execute(sql`
        insert into ${notificationDeliveries} (consignment_id, notification_config_id, tracking_event_id, consignment_state, dedupe_key, channel, recipient, status, detail)
        values (${item.consignmentId}, ${config.id}, ${item.eventId}, ${item.state}, ${dedupeKey(item, config.id)}, ${config.field}, ${recipient}, ${recipient ? "sent" : "skipped"},
          ${recipient ? null : config.field === "email" ? "The receiver has no e-mail address" : "The receiver has no mobile phone number"})
        on conflict (dedupe_key) do nothing
        returning id`),
    );
    if (!claimed) return void result.duplicates++;
    if (!recipient) return void result.skipped++;
    try {
      const values = tagValues(c, item.state, baseUrl);
      const rendered = await renderTemplate(config.template, values);
      if (config.field === "email") {
        // in the customer's own header and footer when it has them (custom e-mails)
        const { html, text } = await frameNotification(await customWording(db, c.customerId, "notification"), values, rendered);
        await mailer.send({ to: recipient, subject: `${values.carrier_name || "Your"} consignment ${values.consignment_number}: ${values.consignment_state}`.trim(), text, html });
      } else {
        await sms.send({ to: recipient, body: fitLength(rendered.text, config.maxLength) });
      }
      result.sent++;
    } catch (e) {
      result.failed++;
      await db
        .update(notificationDeliveries)
        .set({ status: "failed", detail: e instanceof Error ? e.message.slice(0, 500) : String(e) })
        .where(eq(notificationDeliveries.id, Number(claimed.id)));
    }
  }
}

/**
 * After a despatch job: "despatched" notifications for what it despatched. Queued after the
 * despatch committed (its groups commit one by one); a worker dying in between loses nothing the
 * delivery keys would not also stop: a despatch resumed or redespatched queues them again.
 */
export async function notifyDespatched(queue: { enqueue: (name: "notifications.send", payload: NotificationsPayload) => Promise<unknown> } | null, ids: number[]): Promise<void> {
  if (!queue || !ids.length) return;
  await queue.enqueue("notifications.send", { changes: ids.map((consignmentId) => ({ consignmentId, state: "despatched" })) }).catch((e: unknown) => console.error("[notifications] could not queue despatch notifications", e instanceof Error ? e.message : e));
}
