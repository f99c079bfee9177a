/**
 * What the e-mails do with a customer's custom wording (issue 16 item 8): the return e-mail takes
 * its subject, header, body and footer in place of the default text; notification e-mails are
 * framed by its header and footer. Tags are filled in as in notification templates (liquid,
 * values escaped), each part on its own, so text that is not a template (the default paragraphs,
 * a return's own notes) never runs as one.
 */
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customEmails } from "../../../db/schema";
import { escapeHtml } from "../../utils/html";
import { SAMPLE_VALUES, type TemplateValues } from "../templates/tags";
import { TemplateRenderError, renderLine, renderTemplate } from "../templates/templates.server";
import { returnEmailParagraphs } from "../consignments/rules";
import type { CustomEmailKind } from "./custom-emails";

export interface Wording {
  subject: string | null;
  header: string | null;
  body: string | null;
  footer: string | null;
}

export interface Rendered {
  html: string;
  text: string;
}

/** The customer's wording of this kind, or null for the default. */
export async function customWording(db: DbOrTx, customerId: number, kind: CustomEmailKind): Promise<Wording | null> {
  const [row] = await db
    .select({ subject: customEmails.subject, header: customEmails.header, body: customEmails.body, footer: customEmails.footer })
    .from(customEmails)
    .where(and(eq(customEmails.customerId, customerId), eq(customEmails.kind, kind)));
  return row ?? null;
}

/** Plain paragraphs as HTML, escaped (nothing in them is a tag). */
export const paragraphsHtml = (paragraphs: string[]): Rendered => ({
  html: `<div>${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("")}</div>`,
  text: paragraphs.join("\n\n"),
});

/** Parts in order, the blank ones left out: one HTML document and its text. */
async function join(parts: Array<string | Rendered | null>, values: TemplateValues): Promise<Rendered> {
  const out: Rendered[] = [];
  for (const part of parts) {
    if (!part) continue;
    out.push(typeof part === "string" ? await renderTemplate(part, values) : part);
  }
  return { html: out.map((p) => p.html).join("\n"), text: out.map((p) => p.text).filter(Boolean).join("\n\n") };
}

/** A notification e-mail in the customer's frame (unchanged without one). */
export async function frameNotification(frame: Wording | null, values: TemplateValues, rendered: Rendered): Promise<Rendered> {
  if (!frame || (!frame.header && !frame.footer)) return rendered;
  return join([frame.header, rendered, frame.footer], values);
}

/**
 * The return e-mail: the customer's subject and body in place of the defaults where it has them,
 * between its header and footer; the return's own notes follow a custom body, as they follow the default one.
 */
export async function composeReturnEmail(
  wording: Wording | null,
  values: TemplateValues,
  defaults: { subject: string; paragraphs: string[]; notes?: string | null },
): Promise<Rendered & { subject: string }> {
  const subject = wording?.subject ? (await renderLine(wording.subject, values)) || defaults.subject : defaults.subject;
  const body: Array<string | Rendered | null> = wording?.body ? [wording.body, defaults.notes ? paragraphsHtml([defaults.notes]) : null] : [paragraphsHtml(defaults.paragraphs)];
  const { html, text } = await join([wording?.header ?? null, ...body, wording?.footer ?? null], values);
  return { subject, html, text };
}

export interface Preview {
  subject: string | null;
  html: string;
  /** why a stored wording could not be filled in (one that reached the table without the check) */
  error: string | null;
}

/** The editor's preview of a wording (null: the default) with SAMPLE_VALUES: subject and HTML, or why it cannot be shown. */
export async function previewWording(kind: CustomEmailKind, wording: Wording | null, customerName: string): Promise<Preview> {
  try {
    if (kind === "notification") {
      const own = paragraphsHtml(["(The notification's own template is shown here, with the consignment's details.)"]);
      return { subject: null, html: (await frameNotification(wording, SAMPLE_VALUES, own)).html, error: null };
    }
    const paragraphs = returnEmailParagraphs({ contactName: "Sam", customerName, country: "AUSTRALIA" });
    const mail = await composeReturnEmail(wording, SAMPLE_VALUES, { subject: `Collection labels for consignment ${SAMPLE_VALUES.consignment_number}`, paragraphs });
    return { subject: mail.subject, html: mail.html, error: null };
  } catch (e) {
    if (e instanceof TemplateRenderError) return { subject: null, html: "", error: e.message };
    throw e;
  }
}
