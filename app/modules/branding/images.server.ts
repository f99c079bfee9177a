/**
 * Checking a branding image (issue 17 item 7): PNG or JPEG by their bytes, or SVG kept only after
 * sanitising to a strict allow-list of drawing elements and attributes (no scripts, event
 * handlers, styles, foreign content or references outside the image itself). The file's name and
 * claimed type must agree with what the bytes are: a PNG named .svg, or HTML named .png, is refused.
 */
import sanitizeHtml from "sanitize-html";
import { imageTypeOf } from "../notifications/media.server";
import { AppError } from "../../utils/errors";
import { imageSizeProblem } from "../../utils/image-size";
import { MAX_IMAGE_BYTES } from "../../utils/upload-limits";

export type BrandingImageType = "image/png" | "image/jpeg" | "image/svg+xml";

export const BRANDING_MESSAGES = {
  typesOnly: "Only PNG, JPEG or SVG images can be uploaded.",
  mismatch: "The file's contents do not match its name or type.",
  tooLarge: `Images must be ${MAX_IMAGE_BYTES / 1024 / 1024} MB or smaller.`,
  badSvg: "The SVG image could not be read (it must be an <svg> drawing without a DOCTYPE).",
};

const EXTENSION_TYPES: Record<string, BrandingImageType> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", svg: "image/svg+xml" };

const SVG_TAGS = [
  "svg", "g", "defs", "title", "desc", "symbol", "use", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
  "text", "tspan", "linearGradient", "radialGradient", "stop", "clipPath", "mask",
];
const SVG_ATTRIBUTES = [
  "xmlns", "xmlns:xlink", "version", "viewBox", "preserveAspectRatio", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
  "d", "points", "transform", "fill", "fill-opacity", "fill-rule", "clip-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
  "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "id", "class", "offset", "stop-color", "stop-opacity",
  "gradientUnits", "gradientTransform", "spreadMethod", "fx", "fy", "clip-path", "clipPathUnits", "mask", "maskUnits", "font-family", "font-size",
  "font-weight", "font-style", "text-anchor", "dominant-baseline", "letter-spacing", "dx", "dy", "href", "xlink:href",
];

/** A reference that stays inside the image: `#id` or `url(#id)`; anything else could fetch from elsewhere. */
const LOCAL_HREF = /^#[\w.:-]+$/;
const URL_REFERENCE = /url\s*\(/i;
const LOCAL_URL_REFERENCE = /^url\(\s*#[\w.:-]+\s*\)$/i;

function keepOnlyLocalReferences(tagName: string, attribs: Record<string, string>) {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(attribs)) {
    if ((name === "href" || name === "xlink:href") && !LOCAL_HREF.test(value.trim())) continue;
    if (URL_REFERENCE.test(value) && !LOCAL_URL_REFERENCE.test(value.trim())) continue;
    kept[name] = value;
  }
  return { tagName, attribs: kept };
}

/** The SVG's text reduced to the allow-list; refused when it is no SVG drawing (or declares entities). */
export function sanitizeSvg(text: string, field = "file"): string {
  // a DOCTYPE can declare entities (external ones read files); a logo never needs one
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw refuse(field, BRANDING_MESSAGES.badSvg);
  const clean = sanitizeHtml(text, {
    allowedTags: SVG_TAGS,
    allowedAttributes: { "*": SVG_ATTRIBUTES },
    allowedSchemes: [],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    // script, style and foreign content go with what they hold, not only their tags
    nonTextTags: ["script", "style", "textarea", "option", "noscript", "foreignObject", "iframe", "object", "embed"],
    parser: { xmlMode: true },
    transformTags: { "*": keepOnlyLocalReferences },
  }).trim();
  if (!/^<svg[\s>]/.test(clean) || !clean.endsWith("</svg>")) throw refuse(field, BRANDING_MESSAGES.badSvg);
  return clean;
}

const refuse = (field: string, message: string) => new AppError("invalid", message, { [field]: [message] });

/** What the bytes look like as text: an SVG drawing (after an XML declaration or comments), or not. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, "");
  // past an XML declaration, comments and a DOCTYPE (which sanitizeSvg then refuses by name)
  const rest = head.replace(/^\s*(<\?xml[^>]*\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>)\s*)*/i, "");
  return /^<svg[\s>]/i.test(rest);
}

/**
 * A checked image from an uploaded file, for the form field `field` (logo_image or bg_image): its
 * type by the bytes, which must agree with the file's extension and claimed type when they are given.
 */
export async function checkBrandingImage(file: File, field: string): Promise<{ type: BrandingImageType; bytes: Buffer }> {
  if (file.size > MAX_IMAGE_BYTES) throw new AppError("invalid", BRANDING_MESSAGES.tooLarge, { [field]: [BRANDING_MESSAGES.tooLarge] });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const sniffed = imageTypeOf(bytes);
  const type: BrandingImageType | null = sniffed === "image/png" || sniffed === "image/jpeg" ? sniffed : sniffed ? null : looksLikeSvg(bytes) ? "image/svg+xml" : null;
  if (!type) throw refuse(field, BRANDING_MESSAGES.typesOnly);
  const extension = /\.([a-z0-9]+)$/i.exec(file.name ?? "")?.[1]?.toLowerCase();
  const named = extension ? EXTENSION_TYPES[extension] : undefined;
  if (extension && !named) throw refuse(field, BRANDING_MESSAGES.typesOnly);
  const claimed = (file.type || "").toLowerCase().replace("image/jpg", "image/jpeg");
  // browsers send application/octet-stream for types they do not know: that claims nothing
  const claimsImage = claimed !== "" && claimed !== "application/octet-stream";
  if ((named && named !== type) || (claimsImage && claimed !== type)) throw refuse(field, BRANDING_MESSAGES.mismatch);
  if (type !== "image/svg+xml") {
    const tooManyPixels = imageSizeProblem(bytes);
    if (tooManyPixels) throw refuse(field, tooManyPixels);
    return { type, bytes: Buffer.from(bytes) };
  }
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  return { type, bytes: Buffer.from(sanitizeSvg(text, field), "utf-8") };
}
