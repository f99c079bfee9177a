/**
 * The e-mail of a new enquiry or comment: plain text as typed, and an HTML part in which every
 * character of what people wrote is escaped, so no <script> or handler reaches a mail client.
 */
import { escapeHtml } from "../../utils/html";

export interface EnquiryMailInput {
  kind: "new" | "comment";
  ticket: { id: number; subject: string; fullName: string; email: string; phone: string | null; supportRequest: string | null };
  consignmentNumber: string | null;
  author: string;
  text: string;
  link: string;
}

export function enquiryMail(m: EnquiryMailInput): { subject: string; text: string; html: string } {
  const t = m.ticket;
  const subject = m.kind === "new" ? `Enquiry #${t.id}: ${t.subject}` : `Enquiry #${t.id}: ${t.subject} (new comment)`;
  const facts: Array<[string, string | null]> = [
    ["Enquiry", `#${t.id}`],
    ["Subject", t.subject],
    ["Type", t.supportRequest],
    ["Consignment", m.consignmentNumber],
    ["Raised by", `${t.fullName} <${t.email}>`],
    ["Phone", t.phone],
  ];
  const shown = facts.filter((f): f is [string, string] => Boolean(f[1]));
  const opening = m.kind === "new" ? `${m.author} raised an enquiry.` : `${m.author} commented on an enquiry.`;
  const text = [opening, "", ...shown.map(([k, v]) => `${k}: ${v}`), "", m.text, "", `See it at ${m.link}`].join("\n");
  const paragraphs = (s: string) => escapeHtml(s).replace(/\r?\n/g, "<br>");
  const html = [
    `<p>${escapeHtml(opening)}</p>`,
    `<table>${shown.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("")}</table>`,
    m.text ? `<p>${paragraphs(m.text)}</p>` : "",
    `<p><a href="${escapeHtml(m.link)}">See it in FreightDesk</a></p>`,
  ].join("\n");
  return { subject, text, html };
}
