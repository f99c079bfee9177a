/**
 * User-written templates (notification templates for e-mail and SMS, custom e-mail subjects,
 * headers, bodies and footers): the spec's dynamic tags (spec 2 section 9), the sample values a
 * template is tried with when saved, its limits and the messages a refusal gives. Pure, so a
 * screen may show them; the engine is templates.server.ts.
 */

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

/** Filters that only reshape a value's text; every other liquid filter is unknown to the engine. */
export const TEMPLATE_FILTERS = ["upcase", "downcase", "capitalize", "default", "strip", "truncate"] as const;

/**
 * Limits of one template and of one filling-in. A template holds only tags and text (no loops),
 * so its output is at most its own length plus `tags` values: these bound it with room to spare
 * for any template the forms accept, and stop one that got into the table another way.
 */
export const TEMPLATE_LIMITS = {
  /** characters of one template (the largest field, a notification template, takes 100,000) */
  chars: 100_000,
  /** {{ tags }} in one template */
  tags: 100,
  /** characters of one template filled in */
  output: 500_000,
  /** milliseconds one filling-in may take */
  renderMs: 500,
  /** what liquid's own allocation count may reach in one filling-in */
  memory: 1_000_000,
} as const;

const n = (v: number) => v.toLocaleString("en-AU");

export const TEMPLATE_REQUIRED = "Notification template is required";
export const TEMPLATE_MESSAGES = {
  required: TEMPLATE_REQUIRED,
  statement: (name: string) => `Only tags such as {{ receiver_name }} may be used; {% ${name} %} is not allowed`,
  unknownTag: (tag: string) => `Unknown tag {{ ${tag} }}: use one of ${TEMPLATE_TAGS.join(", ")}`,
  filter: (name: string, tag: string) => `The filter ${name} is not allowed in {{ ${tag} }}`,
  filterArgument: (name: string, tag: string) => `The filter ${name} in {{ ${tag} }} may be given only text in quotes or a number`,
  unreadable: (why: string) => `The template cannot be read: ${why}`,
  tooLong: `The template is too long (at most ${n(TEMPLATE_LIMITS.chars)} characters)`,
  tooManyTags: `A template may hold at most ${TEMPLATE_LIMITS.tags} tags such as {{ receiver_name }}`,
  outputTooLong: `The template is too long once its tags are filled in (at most ${n(TEMPLATE_LIMITS.output)} characters)`,
  tooSlow: `The template took too long to fill in (more than ${TEMPLATE_LIMITS.renderMs} ms)`,
  plainLine: "The subject is plain text: HTML such as <b> is not allowed",
  /** a stored template that cannot be used when sending or previewing */
  notFilled: (why: string) => `The template could not be filled in: ${why}`,
} as const;

/** Values for a template tried when saved and for the editors' previews: what a typical consignment fills the tags with. */
export const SAMPLE_VALUES: TemplateValues = {
  receiver_name: "Brisbane Hardware",
  receiver_address: "5 Ipswich Road, WOOLLOONGABBA QLD 4102",
  receiver_phone: "07 3000 0000",
  sender_name: "Melbourne DC",
  sender_locality: "DANDENONG SOUTH",
  consignment_state: "Despatched",
  carrier_name: "Carrier",
  service_name: "Road Express",
  consignment_reference: "PO-1234",
  custom_reference: "",
  consignment_number: "ABC000123",
  line_item_references: "",
  estimated_delivery_date: "27/11/2026",
  carrier_web_url: "https://carrier.example/track/ABC000123",
  public_tracking_url: "https://freightdesk.example/track/sample",
  sender_site_phone: "03 9000 0000",
  special_instructions: "Leave at dock 3",
};
