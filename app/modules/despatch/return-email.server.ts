/**
 * The e-mail of a despatched return or third-party pickup (spec 1 sections 2 and 7): its labels
 * and its manifest as PDFs, to the pickup contact's address, with the text the screen previews.
 * Sent by Despatch + email (in the despatch job) and by Resend email (POST /api/returns/{id}/email).
 */
import type { DbOrTx } from "../../../db/client.server";
import { renderManifestsHtml } from "../../../print-templates/documents/Manifest";
import { A4 } from "../../../print-templates/documents/Documents";
import { renderLabelsHtml } from "../../../print-templates/labels/Labels";
import { loadCurrentUser, type CurrentUser } from "../auth/current-user.server";
import { getConsignment } from "../consignments/consignments.server";
import { isDespatched, returnEmailParagraphs } from "../consignments/rules";
import type { Mailer } from "../mail/mailer.server";
import { manifestsOf } from "../printing/consignment-documents.server";
import { labelsOf, printLabels } from "../printing/labels.server";
import type { Renderer } from "../printing/renderer.server";
import { AppError, notFound } from "../../utils/errors";
import { composeReturnEmail, customWording } from "../custom-emails/wording.server";
import { templateValuesOf } from "../notifications/send.server";
import { TemplateRenderError } from "../templates/templates.server";

export const EMAILED = "Labels and manifest emailed.";
export const NO_EMAIL = "This return has no email address to send its labels to";
export const NOT_DESPATCHED = "Labels and manifest can be emailed once the return has been despatched";

export interface EmailServices {
  db: DbOrTx;
  mailer: Mailer;
  renderer: Renderer;
}

export async function emailReturnDocuments(services: EmailServices, who: CurrentUser | number, id: number): Promise<{ message: string }> {
  const { db, mailer, renderer } = services;
  const user = typeof who === "number" ? await loadCurrentUser(db, who) : who;
  if (!user) throw notFound("User");
  const c = await getConsignment(db, user, id);
  if (!c.return_type) throw notFound("Return");
  const to = c.return_info?.email;
  if (!to) throw new AppError("invalid", NO_EMAIL, { email: [NO_EMAIL] });
  if (!isDespatched(c.state) || !c.manifest_id) throw new AppError("conflict", NOT_DESPATCHED, { base: [NOT_DESPATCHED] });

  // the e-mail is the labels' printing: a line's SSCCs are allocated the first time
  if (c.number_of_labels === 0 || c.items.some((i) => i.ssccs.length === 0)) await printLabels(db, user, id);
  const { labels, page } = await labelsOf(db, user, id);
  const manifests = await manifestsOf(db, user, new URLSearchParams({ ids: String(c.manifest_id) }));
  const [labelsPdf, manifestPdf] = [await renderer.renderPdf(renderLabelsHtml(labels, page), { width: page.width, height: page.height }), await renderer.renderPdf(renderManifestsHtml(manifests), A4)];
  const site = user.sites.find((s) => s.id === c.site_id);
  const paragraphs = returnEmailParagraphs({
    contactName: c.return_info?.contact_name,
    customerName: user.customer.name,
    readyDate: c.return_info?.ready_at,
    country: site?.country ?? "AUSTRALIA",
    notes: c.return_info?.email_body,
    csPhone: site?.csPhoneNumber,
  });
  const defaults = { subject: `Collection labels for consignment ${c.consignment_number}`, paragraphs, notes: c.return_info?.email_body };
  // the customer's own wording (custom e-mails) when it has one; else the default text alone
  const wording = await customWording(db, c.customer_id, "return");
  const values = wording ? await templateValuesOf(db, c.id, c.state) : null;
  const plain = { subject: defaults.subject, text: paragraphs.join("\n\n"), html: undefined };
  // a wording that cannot be filled in (logged by the renderer) must not keep the labels from the pickup contact
  const mail = wording && values ? await composeReturnEmail(wording, values, defaults).catch((e: unknown) => (e instanceof TemplateRenderError ? plain : Promise.reject(e))) : plain;
  await mailer.send({
    to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: [
      { filename: `labels-${c.consignment_number}.pdf`, contentType: "application/pdf", content: labelsPdf },
      { filename: `manifest-${manifests[0]?.number ?? c.manifest_id}.pdf`, contentType: "application/pdf", content: manifestPdf },
    ],
  });
  return { message: EMAILED };
}
