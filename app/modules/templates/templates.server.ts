/**
 * The one place user-written templates are checked and filled in (issue 35 finding 1; spec 2
 * section 9): notification templates (e-mail and SMS) and custom e-mails (subject, header, body,
 * footer). A template is checked when saved, as typed and again as it will be stored, and tried
 * with sample values within the limits; what the check returns is what the caller stores. Filling
 * in a stored template goes through the same rules: one that breaks them (written to the table
 * some other way) is never run, it fails with TemplateRenderError, logged.
 */
import juice from "juice";
import sanitizeHtml from "sanitize-html";
import { brandedError } from "../../utils/errors";
import { TemplateRefused, fillTemplate, parseTemplate, type TemplateKind } from "./engine.server";
import { SAMPLE_VALUES, TEMPLATE_MESSAGES, type TemplateValues } from "./tags";

/** A stored template that could not be filled in; the message says why. */
export class TemplateRenderError extends brandedError("TemplateRenderError") {}

/** What a template may hold: the rich text the editor makes, images from our media or https. */
function sanitize(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "a", "ul", "ol", "li", "h1", "h2", "h3", "blockquote", "span", "img"],
    allowedAttributes: { a: ["href", "title", "target", "rel"], img: ["src", "alt", "width", "height"], span: ["style"], p: ["style"], h1: ["style"], h2: ["style"], h3: ["style"] },
    allowedStyles: { "*": { color: [/^#[0-9a-f]{3,6}$/i, /^rgb\(\d{1,3}, ?\d{1,3}, ?\d{1,3}\)$/], "text-align": [/^(left|right|center|justify)$/] } },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["https", "http"] },
    // {{ tags }} are text to sanitize-html: kept as they are
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer", target: "_blank" }) },
  });
}

export type TemplateCheck = { ok: true; html: string } | { ok: false; message: string };
export type LineCheck = { ok: true; line: string } | { ok: false; message: string };

const refusal = (e: unknown): { ok: false; message: string } => {
  if (e instanceof TemplateRefused) return { ok: false, message: e.message };
  throw e;
};

/**
 * A rich-text template as it will be stored (sanitised), or why it cannot be: empty, a statement,
 * an unknown tag, a filter not allowed, broken syntax, or past a limit once filled in. Checked as
 * typed first, so a statement hidden where the sanitiser would drop it (an attribute) is refused,
 * not quietly dropped; then the sanitised HTML, which is what is stored, is checked and tried.
 */
export function checkTemplate(input: string): TemplateCheck {
  try {
    parseTemplate(input ?? "");
    const html = sanitize(input ?? "").trim();
    const text = html.replace(/<[^>]*>/g, "").trim();
    if (!text && !/<img\b/i.test(html)) return { ok: false, message: TEMPLATE_MESSAGES.required };
    fillTemplate(html, SAMPLE_VALUES, "html");
    return { ok: true, html };
  } catch (e) {
    return refusal(e);
  }
}

/**
 * A one-line template (an e-mail subject) as it will be stored: plain text, spaces collapsed, no
 * markup (it is never HTML, so nothing would sanitise it), held to the same rules and limits.
 */
export function checkLine(input: string): LineCheck {
  const line = (input ?? "").replace(/\s+/g, " ").trim();
  try {
    fillTemplate(line, SAMPLE_VALUES, "text");
    if (/<[a-z!/?]/i.test(line)) return { ok: false, message: TEMPLATE_MESSAGES.plainLine };
    return { ok: true, line };
  } catch (e) {
    return refusal(e);
  }
}

/** A stored template filled in, or TemplateRenderError (logged: the template needs correcting, not the request). */
function fill(template: string, values: TemplateValues, kind: TemplateKind): string {
  try {
    return fillTemplate(template, values, kind);
  } catch (e) {
    if (!(e instanceof TemplateRefused)) throw e;
    const error = new TemplateRenderError(TEMPLATE_MESSAGES.notFilled(e.message));
    console.error(`[templates] ${error.message} (a stored ${kind} template of ${template.length} characters)`);
    throw error;
  }
}

const STYLE = "p, li { font-family: Arial, Helvetica, sans-serif; font-size: 14px; color: #0f172a; } a { color: #0369a1; } img { max-width: 100%; }";

/**
 * A stored template with a consignment's values: HTML for mail clients (sanitised again once
 * filled in, CSS inlined), and its text (an SMS's body, an e-mail's text part). Values are
 * escaped; a tag without a value is empty.
 */
export async function renderTemplate(template: string, values: TemplateValues): Promise<{ html: string; text: string }> {
  const body = sanitize(fill(template, values, "html"));
  const html = juice(`<style>${STYLE}</style><div>${body}</div>`);
  const text = sanitizeHtml(body.replace(/<\/(p|li|h[1-3]|blockquote)>|<br\s*\/?>/gi, "\n"), { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, " ")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { html, text };
}

/** A stored one-line template (a subject) filled in, as plain text on one line. */
export async function renderLine(line: string, values: TemplateValues): Promise<string> {
  return fill(line, values, "text").replace(/\s+/g, " ").trim();
}
