import nodemailer from "nodemailer";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { mailMessages } from "../../../db/schema";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

export interface Mailer {
  /** "smtp" sends through SMTP_URL; "database" stores every message for the mailbox page. */
  readonly transport: "smtp" | "database";
  /** `via`: the transaction the message belongs to, so a stored message commits or rolls back with it */
  send(message: MailMessage, via?: DbOrTx): Promise<void>;
}

/** One mailer for every e-mail the product sends (password reset, returns, notifications). */
export function createMailer(db: DbOrTx, options: { smtpUrl?: string; from: string }): Mailer {
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      transport: "smtp",
      async send(m) {
        await transporter.sendMail({ from: options.from, to: m.to, subject: m.subject, text: m.text, html: m.html, attachments: m.attachments });
      },
    };
  }
  return {
    transport: "database",
    async send(m, via) {
      await (via ?? db).insert(mailMessages).values({
        to: m.to.toLowerCase(),
        subject: m.subject,
        text: m.text,
        html: m.html,
        attachments: (m.attachments ?? []).map((a) => ({ filename: a.filename, content_type: a.contentType, content_base64: a.content.toString("base64") })),
      });
    },
  };
}

export async function storedMessagesFor(db: DbOrTx, to: string, subject?: string) {
  return db
    .select()
    .from(mailMessages)
    .where(subject ? and(eq(mailMessages.to, to.toLowerCase()), eq(mailMessages.subject, subject)) : eq(mailMessages.to, to.toLowerCase()))
    .orderBy(desc(mailMessages.createdAt), desc(mailMessages.id));
}

/** The newest stored messages, for the staff mailbox page. */
export async function latestMessages(db: DbOrTx, limit = 100) {
  return db.select().from(mailMessages).orderBy(desc(mailMessages.createdAt), desc(mailMessages.id)).limit(limit);
}
