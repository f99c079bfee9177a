/**
 * Notification templates (issue 14 items 6 and 7; spec 2 section 9): rich text with the spec's
 * dynamic tags, written `{{ receiver_name }}`. Logic-less on purpose: liquidjs with nothing but
 * output tags and a few harmless filters, so no user-written code ever runs. A template is checked
 * when it is saved (unknown tags, broken syntax, unsafe HTML), never first found wrong when sending.
 */
import juice from "juice";
import { Liquid, type Template } from "liquidjs";
import sanitizeHtml from "sanitize-html";

/** The dynamic tags of spec 2 section 9, in its order. */
export const TEMPLATE_TAGS = [
  "receiver_name",
  "receiver_address",
  "receiver_phone",
  "sender_name",
  "sender_locality",
  "consignment_state",
  "carrier_name",
  "service_name",
  "consignment_reference",
  "custom_reference",
  "consignment_number",
  "line_item_references",
  "estimated_delivery_date",
  "carrier_web_url",
  "public_tracking_url",
  "sender_site_phone",
  "special_instructions",
] as const;
export type TemplateTag = (typeof TEMPLATE_TAGS)[number];
export type TemplateValues = Record<TemplateTag, string>;

export const TEMPLATE_REQUIRED = "Notification template is required";
export const TEMPLATE_TOO_LONG = (max: number) => `The message is longer than this notification type allows (${max} characters)`;

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  // output only: {% if %}, {% for %}, {% include %} and the rest are refused when saved
  outputEscape: "escape",
});
// tags are data, not markup: no statements may run
const ALLOWED_FILTERS = new Set(["upcase", "downcase", "capitalize", "default", "strip", "truncate"]);

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

/**
 * The template as it will be stored (sanitised), or why it cannot be: empty, an unknown tag, a
 * statement, a filter not allowed, or a syntax error.
 */
export function checkTemplate(input: string): TemplateCheck {
  const html = sanitize(input ?? "").trim();
  const text = html.replace(/<[^>]*>/g, "").trim();
  if (!text && !/<img\b/i.test(html)) return { ok: false, message: TEMPLATE_REQUIRED };
  let parsed: Template[];
  try {
    parsed = engine.parse(html);
  } catch (e) {
    return { ok: false, message: `The template cannot be read: ${(e as Error).message.split(", line:")[0]}` };
  }
  for (const node of parsed) {
    const kind = node.constructor.name;
    if (kind === "HTMLToken" || kind === "HTML") continue;
    const token = (node as unknown as { token?: { content?: string; name?: string; kind?: number } }).token;
    if (kind !== "Output") return { ok: false, message: `Only tags such as {{ receiver_name }} may be used; {% ${token?.name ?? "…"} %} is not allowed` };
    const content = (token?.content ?? "").trim();
    const [variable, ...filters] = content.split("|").map((s) => s.trim());
    if (!(TEMPLATE_TAGS as readonly string[]).includes(variable ?? "")) return { ok: false, message: `Unknown tag {{ ${variable} }}: use one of ${TEMPLATE_TAGS.join(", ")}` };
    for (const f of filters) {
      const name = f.split(":")[0]!.trim();
      if (!ALLOWED_FILTERS.has(name)) return { ok: false, message: `The filter ${name} is not allowed in {{ ${variable} }}` };
    }
  }
  return { ok: true, html };
}

const STYLE = "p, li { font-family: Arial, Helvetica, sans-serif; font-size: 14px; color: #0f172a; } a { color: #0369a1; } img { max-width: 100%; }";

/**
 * A stored template with a consignment's values: HTML for mail clients (CSS inlined), and its
 * text (an SMS's body, an e-mail's text part). Values are escaped; a tag without a value is empty.
 */
export async function renderTemplate(template: string, values: TemplateValues): Promise<{ html: string; text: string }> {
  const body = await engine.parseAndRender(template, values);
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
