/**
 * The liquid engine every user-written template is filled in with (issue 35 finding 1), and the
 * rules a template is held to: text and output tags `{{ receiver_name | upcase }}` only. The
 * engine itself knows no statement (no include, render or layout, no for, if or raw: its tag
 * table is empty), no file system (an empty in-memory one), only the allowed filters, and stops
 * a filling-in past its time, allocation and output limits. The rules are also checked on the
 * parsed template, so a template is refused for what it is, not only for what the engine lacks.
 */
import { Liquid, Output, TypeGuards, type Template } from "liquidjs";
import { brandedError } from "../../utils/errors";
import { escapeHtml } from "../../utils/html";
import { TEMPLATE_FILTERS, TEMPLATE_LIMITS, TEMPLATE_MESSAGES as M, TEMPLATE_TAGS, type TemplateValues } from "./tags";

/** Why a template cannot be used, in words for the field that holds it. */
export class TemplateRefused extends brandedError("TemplateRefused") {}

export type TemplateLimits = { [K in keyof typeof TEMPLATE_LIMITS]: number };

/** Values go into HTML escaped, every one: there is no raw filter to opt out with. */
const escapeOutput = (value: unknown) => escapeHtml(value === null || value === undefined ? "" : String(value));

function makeEngine(outputEscape: ((value: unknown) => string) | undefined): Liquid {
  const engine = new Liquid({
    // an empty in-memory file system: were include, render or layout ever known, they would find nothing
    templates: {},
    cache: false,
    strictFilters: true,
    strictVariables: true,
    ownPropertyOnly: true,
    outputEscape,
    parseLimit: TEMPLATE_LIMITS.chars,
    renderLimit: TEMPLATE_LIMITS.renderMs,
    memoryLimit: TEMPLATE_LIMITS.memory,
  });
  for (const name of Object.keys(engine.tags)) delete engine.tags[name];
  const allowed = new Set<string>(TEMPLATE_FILTERS);
  for (const name of Object.keys(engine.filters)) if (!allowed.has(name)) delete engine.filters[name];
  return engine;
}

/** HTML (e-mail parts, notification templates), values escaped; and plain text (a subject), values as they are. */
const ENGINES = { html: makeEngine(escapeOutput), text: makeEngine(undefined) } as const;
export type TemplateKind = keyof typeof ENGINES;

const isTag = (name: string): boolean => (TEMPLATE_TAGS as readonly string[]).includes(name);

/** The words for a template liquid could not parse: a statement or filter it does not know is what it is. */
function unreadable(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const statement = /^tag "([^"]*)" not found/.exec(message);
  if (statement) return M.statement(statement[1]!);
  const filter = /^undefined filter: ([^,\s]+)/.exec(message);
  if (filter) {
    const content = (e as { token?: { content?: string } }).token?.content ?? "";
    return M.filter(filter[1]!, content.split("|")[0]!.trim() || "…");
  }
  if (/parse length limit/.test(message)) return M.tooLong;
  return M.unreadable(message.split(", line:")[0]!);
}

/** One output tag: a dynamic tag by its bare name, then allowed filters given literals only. */
function checkOutput(node: Output): void {
  const content = node.token.content.trim();
  const [first, ...more] = node.value.initial.postfix;
  const prop = first && !more.length && TypeGuards.isPropertyAccessToken(first) && first.props.length === 1 ? first.props[0] : undefined;
  const tag = prop && TypeGuards.isWordToken(prop) ? prop.content : undefined;
  if (!tag || !isTag(tag)) throw new TemplateRefused(M.unknownTag(content.split("|")[0]!.trim()));
  for (const filter of node.value.filters) {
    // the engine's own escaping, added after the written filters (the handler is not in liquid's types)
    if ((filter as unknown as { handler: unknown }).handler === escapeOutput) continue;
    if (!(TEMPLATE_FILTERS as readonly string[]).includes(filter.name)) throw new TemplateRefused(M.filter(filter.name, tag));
    // a variable as an argument would reach past the tags (`default: constructor`)
    for (const arg of filter.args) if (Array.isArray(arg) || !(TypeGuards.isQuotedToken(arg) || TypeGuards.isNumberToken(arg))) throw new TemplateRefused(M.filterArgument(filter.name, tag));
  }
}

/** The template parsed and held to the rules, or TemplateRefused with the reason. */
export function parseTemplate(source: string, kind: TemplateKind = "html", limits: TemplateLimits = TEMPLATE_LIMITS): Template[] {
  if (source.length > limits.chars) throw new TemplateRefused(M.tooLong);
  // a statement is named first, wherever it is: it is the worse of two faults
  const statement = /\{%-?\s*([^\s%-]+)/.exec(source);
  if (statement) throw new TemplateRefused(M.statement(statement[1]!));
  let parsed: Template[];
  try {
    parsed = ENGINES[kind].parse(source);
  } catch (e) {
    throw new TemplateRefused(unreadable(e));
  }
  let tags = 0;
  for (const node of parsed) {
    if (TypeGuards.isHTMLToken(node.token)) continue;
    if (!(node instanceof Output)) throw new TemplateRefused(M.statement((node.token as { name?: string }).name ?? "…"));
    checkOutput(node);
    if (++tags > limits.tags) throw new TemplateRefused(M.tooManyTags);
  }
  return parsed;
}

/** Only the tags, as own properties of an object with no prototype: nothing else can be looked up. */
function scopeOf(values: TemplateValues): Record<string, string> {
  const scope = Object.create(null) as Record<string, string>;
  for (const tag of TEMPLATE_TAGS) scope[tag] = String(values[tag] ?? "");
  return scope;
}

/**
 * The template filled in with the values, within the limits; TemplateRefused with the reason
 * otherwise. Synchronous on purpose: nothing else runs between its checks of the clock.
 */
export function fillTemplate(source: string, values: TemplateValues, kind: TemplateKind = "html", limits: TemplateLimits = TEMPLATE_LIMITS): string {
  const parsed = parseTemplate(source, kind, limits);
  let out: string;
  try {
    out = String(ENGINES[kind].renderSync(parsed, scopeOf(values), { renderLimit: limits.renderMs, memoryLimit: limits.memory }));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/template render limit/.test(message)) throw new TemplateRefused(M.tooSlow);
    if (/memory alloc limit/.test(message)) throw new TemplateRefused(M.outputTooLong);
    throw new TemplateRefused(M.unreadable(message.split(", line:")[0]!));
  }
  if (out.length > limits.output) throw new TemplateRefused(M.outputTooLong);
  return out;
}
