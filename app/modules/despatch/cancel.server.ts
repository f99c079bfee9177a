/**
 * Cancellation (spec 1 sections 4, 6, 7): initiating asks the carrier's adapter and answers one of
 * four results; customer service then confirms a cancelling consignment. Offered only in QA and
 * UAT (APP_ENV); the window is always open for admins, else until cancellation_allowed_date.
 */
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignmentChanges, consignments, type ConsignmentState } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canAlwaysCancel, isCustomerServiceRole } from "../auth/roles";
import { lockConsignment, webhookConsignmentJson } from "../consignments/consignments.server";
import { emitEvent } from "../webhooks/index.server";
import { canTransition, transition } from "../consignments/lifecycle";
import { SUPPORT_EMAIL_MISSING } from "../consignments/rules";
import type { MailMessage, Mailer } from "../mail/mailer.server";
import { env } from "../../utils/env.server";
import { AppError } from "../../utils/errors";
import { adapterFor, type CancelResult } from "../carriers/adapters.server";

export const CANCEL_MESSAGES: Record<Exclude<CancelResult, "cancel_rejected">, string> = {
  cancel_pending: "Your cancellation request has been sent to the carrier. The consignment will show as cancelled once it is confirmed.",
  cancel_confirmed: "An email has been sent to the carrier to cancel this consignment. Please follow up with the carrier to make sure it is not collected.",
  cancel_confirmed_for_auto_delivered: "The consignment has been cancelled.",
};
export const CANCELLATION_CONFIRMED = "The cancellation has been confirmed.";
export const CANCEL_NOT_OFFERED = "Cancellation is not available in this environment";
export const NOT_CANCELLABLE = "Only a despatched consignment can be cancelled";
export const ALREADY_CANCELLING = "This consignment is already being cancelled";
export const ALREADY_CANCELLED = "This consignment has already been cancelled";
export const WINDOW_CLOSED = "The time to cancel this consignment has passed. Please contact customer services.";

/** Cancel is offered only in QA and UAT environments (spec 1 section 4). */
export const cancellationOffered = () => env().APP_ENV === "qa" || env().APP_ENV === "uat";

export interface CancelAnswer {
  result: CancelResult | "cancel_confirmed_by_customer_service";
  message: string;
  state: ConsignmentState;
}

async function setState(tx: DbOrTx, user: CurrentUser, id: number, from: ConsignmentState, to: ConsignmentState) {
  const [saved] = await tx
    .update(consignments)
    .set({ state: to, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
    .where(eq(consignments.id, id))
    .returning();
  await tx.insert(consignmentChanges).values({ consignmentId: id, version: saved!.version, field: "state", fromValue: from, toValue: to, changedBy: user.id });
  if (to === "cancelled") await emitEvent(tx, { type: "consignment.cancelled", customerId: saved!.customerId, consignmentId: id, payload: () => webhookConsignmentJson(tx, saved!) });
}

/** PUT /api/consignments/{id}/initiate_cancel */
export async function initiateCancel(db: DbOrTx, mailer: Mailer, user: CurrentUser, id: number, options: { offered?: boolean; now?: Date } = {}): Promise<CancelAnswer> {
  const offered = options.offered ?? cancellationOffered();
  const now = options.now ?? new Date();
  if (!offered) throw new AppError("forbidden", CANCEL_NOT_OFFERED);
  // e-mail the adapter sends waits for the commit: none goes out for a change that rolls back
  // (and the mailer's own connection is not the transaction's)
  const outbox: MailMessage[] = [];
  const answer = await db.transaction(async (tx) => {
    const { row } = await lockConsignment(tx, user, id);
    if (row.state === "cancelling") throw new AppError("conflict", ALREADY_CANCELLING, { base: [ALREADY_CANCELLING] });
    if (row.state === "cancelled") throw new AppError("conflict", ALREADY_CANCELLED, { base: [ALREADY_CANCELLED] });
    if (!canTransition(row.state, "cancel_confirmed")) throw new AppError("conflict", NOT_CANCELLABLE, { base: [NOT_CANCELLABLE] });
    const withinWindow = canAlwaysCancel(user) || (row.cancellationAllowedDate != null && now.getTime() <= row.cancellationAllowedDate.getTime());
    if (!withinWindow) throw new AppError("conflict", WINDOW_CLOSED, { base: [WINDOW_CLOSED] });

    const [account] = await tx
      .select({ supportEmail: carrierAccounts.supportEmail, carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options } })
      .from(carrierAccounts)
      .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
      .where(eq(carrierAccounts.id, row.carrierAccountId ?? -1));
    if (!account?.supportEmail) throw new AppError("invalid", SUPPORT_EMAIL_MISSING, { base: [SUPPORT_EMAIL_MISSING] });

    const carrierAnswer = await adapterFor(account.carrier).cancel({
      consignmentNumber: row.consignmentNumber,
      autoDelivered: row.autoDelivered,
      supportEmail: account.supportEmail,
      customerName: user.customer.name,
      requestedBy: `${user.fullName} <${user.email}>`,
      mailer: { transport: mailer.transport, send: async (m) => void outbox.push(m) },
    });
    if (carrierAnswer.result === "cancel_rejected") {
      return { result: carrierAnswer.result, message: carrierAnswer.message ?? "The carrier refused to cancel this consignment.", state: row.state };
    }
    const to = transition(row.state, carrierAnswer.result === "cancel_pending" ? "cancel_pending" : "cancel_confirmed");
    await setState(tx, user, id, row.state, to);
    return { result: carrierAnswer.result, message: CANCEL_MESSAGES[carrierAnswer.result], state: to };
  });
  for (const m of outbox) await mailer.send(m);
  return answer;
}

/** PUT /api/consignments/{id}/confirm_cancel: customer service confirms a cancelling consignment. */
export async function confirmCancel(db: DbOrTx, user: CurrentUser, id: number): Promise<CancelAnswer> {
  authorize(user, isCustomerServiceRole);
  return db.transaction(async (tx) => {
    const { row } = await lockConsignment(tx, user, id);
    const to = transition(row.state, "confirm_cancel");
    await setState(tx, user, id, row.state, to);
    return { result: "cancel_confirmed_by_customer_service", message: CANCELLATION_CONFIRMED, state: to };
  });
}
