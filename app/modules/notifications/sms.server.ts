/**
 * Text messages (issue 14 item 7). No SMS gateway is reachable from here, so, like the mailer
 * without SMTP, messages are kept in an outbox (sms_messages) that staff read on the mailbox page.
 * With SMS_GATEWAY_URL set, each message is posted to it as JSON `{ to, body }` (the shape most
 * HTTP gateways and relays take); a gateway's refusal is an error the caller records.
 */
import { desc } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { smsMessages } from "../../../db/schema";

export interface SmsSender {
  readonly transport: "gateway" | "database";
  send(message: { to: string; body: string }): Promise<void>;
}

export function createSmsSender(db: DbOrTx, options: { gatewayUrl?: string; fetch?: typeof fetch } = {}): SmsSender {
  const { gatewayUrl } = options;
  if (gatewayUrl) {
    const post = options.fetch ?? fetch;
    return {
      transport: "gateway",
      async send(m) {
        const res = await post(gatewayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(m), signal: AbortSignal.timeout(10_000) });
        if (!res.ok) throw new Error(`The SMS gateway answered ${res.status}`);
      },
    };
  }
  return {
    transport: "database",
    async send(m) {
      await db.insert(smsMessages).values({ to: m.to, body: m.body });
    },
  };
}

/** The newest kept text messages, for the staff mailbox page. */
export async function latestSmsMessages(db: DbOrTx, limit = 100) {
  return db.select().from(smsMessages).orderBy(desc(smsMessages.createdAt), desc(smsMessages.id)).limit(limit);
}

/** A phone number as a gateway takes it: digits and a leading +, nothing else. */
export const phoneForSms = (phone: string | null | undefined) => {
  const cleaned = (phone ?? "").replace(/[^\d+]/g, "");
  return cleaned.replace(/\D/g, "").length >= 6 ? cleaned : null;
};
