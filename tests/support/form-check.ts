/**
 * The reusable check of issue 31 #4: a server-rendered form, posted as a browser without
 * JavaScript posts it, must put each field's message beside the control of that field. A form
 * whose server keys its errors differently from its field names (`name` for `address.name`) says
 * "correct the fields marked" and marks nothing; this finds it.
 */
import * as cheerio from "cheerio";
import { expect } from "vitest";
import type { Client } from "./server";

type Page = cheerio.CheerioAPI;
type AnyNode = Parameters<typeof cheerio.contains>[0];

/** Which form of the page: the one holding the submit button with this text (default: the first form with a control). */
export type FormPick = { button?: string | RegExp };

/** A file input with no file chosen (multipart: an empty part without a name; urlencoded: left out). */
const FILE_NONE = "\u0000no-file";

const html = { headers: { Accept: "text/html", "X-Requested-With": "" } };

/** The page as a browser without JavaScript reads it (a 200 is required). */
export async function readPage(client: Client, path: string): Promise<Page> {
  const res = await client.request(path, html);
  expect(res.status, `GET ${path}`).toBe(200);
  return cheerio.load(await res.text());
}

function pickForm($: Page, pick: FormPick): { form: cheerio.Cheerio<AnyNode>; submitter: cheerio.Cheerio<AnyNode> | null } {
  const buttons = $("button[type=submit], button:not([type]), input[type=submit]").filter((_, b) => {
    if (!pick.button) return true;
    const text = $(b).text().trim() || ($(b).attr("value") ?? "");
    return typeof pick.button === "string" ? text === pick.button : pick.button.test(text);
  });
  for (const b of buttons.toArray()) {
    const owner = $(b).attr("form");
    const form = owner ? $(`form[id="${owner}"]`) : $(b).closest("form");
    if (form.length) return { form: form.first(), submitter: $(b) };
  }
  if (pick.button) throw new Error(`no form with a button ${String(pick.button)}`);
  return { form: $("form").filter((_, f) => $(f).find("input, select, textarea").length > 0).first(), submitter: null };
}

/** The controls a form owns: its descendants and the controls elsewhere naming it by `form=`. */
function controls($: Page, form: cheerio.Cheerio<AnyNode>) {
  const id = form.attr("id");
  const inside = form.find("input, select, textarea").toArray();
  const outside = id ? $(`input[form="${id}"], select[form="${id}"], textarea[form="${id}"]`).toArray() : [];
  return [...inside, ...outside];
}

/** What a browser submits for the form (disabled controls, unticked boxes and other submit buttons left out). */
function formEntries($: Page, form: cheerio.Cheerio<AnyNode>, submitter: cheerio.Cheerio<AnyNode> | null): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const el of controls($, form)) {
    const c = $(el);
    const name = c.attr("name");
    if (!name || c.is(":disabled") || c.closest("fieldset[disabled]").length) continue;
    const type = (c.attr("type") ?? "text").toLowerCase();
    if (["submit", "button", "image", "reset"].includes(type)) continue;
    if (type === "file") {
      entries.push([name, FILE_NONE]);
      continue;
    }
    if ((type === "checkbox" || type === "radio") && c.attr("checked") === undefined) continue;
    if (c.is("select")) {
      const chosen = c.find("option[selected]").first();
      const option = chosen.length ? chosen : c.find("option").first();
      if (option.length) entries.push([name, option.attr("value") ?? option.text()]);
    } else if (c.is("textarea")) entries.push([name, c.text()]);
    else entries.push([name, c.attr("value") ?? (type === "checkbox" || type === "radio" ? "on" : "")]);
  }
  const by = submitter?.attr("name");
  if (submitter && by) entries.push([by, submitter.attr("value") ?? ""]);
  return entries;
}

/**
 * Reads the form at `path`, empties the fields `blank` (every other control keeps what the page
 * gave it, `set` overrides), posts it where the form posts and answers the page that comes back.
 */
export async function postFormBlank(client: Client, path: string, blank: string[], options: FormPick & { set?: Record<string, string> } = {}) {
  const $ = await readPage(client, path);
  const { form, submitter } = pickForm($, options);
  expect(form.length, `a form on ${path}`).toBe(1);
  const names = new Set(formEntries($, form, null).map(([n]) => n));
  const all = controls($, form).map((el) => $(el).attr("name"));
  for (const n of blank) expect(names.has(n) || all.includes(n), `${path} has a field named ${n} (it has ${all.join(", ")})`).toBe(true);
  const entries = formEntries($, form, submitter).map(([n, v]): [string, string] => [n, blank.includes(n) ? "" : (options.set?.[n] ?? v)]);
  for (const [n, v] of Object.entries(options.set ?? {})) if (!entries.some(([e]) => e === n)) entries.push([n, v]);
  const action = submitter?.attr("formaction") ?? form.attr("action") ?? path;
  const target = new URL(action, `http://x${path}`);
  const multipart = (form.attr("enctype") ?? "").toLowerCase() === "multipart/form-data";
  const res = multipart ? await postMultipart(client, target.pathname + target.search, entries) : await client.request(target.pathname + target.search, { ...html, form: entries.filter(([, v]) => v !== FILE_NONE) });
  const body = await res.text();
  return { status: res.status, html: body, $: cheerio.load(body) };
}

/** A multipart post as a browser sends it, with the client's session. */
async function postMultipart(client: Client, pathname: string, entries: Array<[string, string]>) {
  const body = new FormData();
  for (const [n, v] of entries) {
    if (v === FILE_NONE) body.append(n, new File([], "", { type: "application/octet-stream" }));
    else body.append(n, v);
  }
  return fetch(client.base + pathname, { method: "POST", headers: { cookie: client.cookie, Accept: "text/html" }, body, redirect: "manual" });
}

const described = ($: Page, el: AnyNode) =>
  ($(el).attr("aria-describedby") ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => $(`[id="${id}"]`).text().trim())
    .filter(Boolean);

/**
 * Every field named in `names` is marked invalid and described by a non-empty message (the
 * message beside it); every field message on the page belongs to a control; a page that asks to
 * correct the fields marked marks one. Answers each name's message for finer expectations.
 */
export function expectMarked($: Page, names: string[], where = ""): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of names) {
    const control = $(`[name="${name}"]`).filter((_, el) => $(el).is("input, select, textarea") && $(el).attr("type") !== "hidden");
    expect(control.length, `${where} a control named ${name}`).toBeGreaterThan(0);
    const marked = control.filter((_, el) => $(el).attr("aria-invalid") === "true");
    expect(marked.length, `${where} ${name} is marked invalid`).toBeGreaterThan(0);
    const messages = described($, marked.get(0)!);
    expect(messages.length, `${where} ${name} is described by its message`).toBeGreaterThan(0);
    found[name] = messages.join(" ");
  }
  expectNoOrphanMessages($, where);
  return found;
}

/** No field message (`.field-error`) that no control names, and no "fields marked" with none marked. */
export function expectNoOrphanMessages($: Page, where = "") {
  const referenced = new Set(
    $("[aria-describedby]")
      .toArray()
      .flatMap((el) => ($(el).attr("aria-describedby") ?? "").split(/\s+/)),
  );
  const orphans = $(".field-error")
    .toArray()
    .filter((el) => !$(el).attr("id") || !referenced.has($(el).attr("id")!))
    .map((el) => $(el).text().trim());
  expect(orphans.join(" | "), `${where} field messages no control is described by`).toBe("");
  if (/fields? marked/i.test($("main").text() || $("body").text())) {
    expect($('[aria-invalid="true"]').length, `${where} says fields are marked`).toBeGreaterThan(0);
  }
}

/**
 * No form inside a form in the page as the server sent it. A browser drops the inner form's tag,
 * so its controls post the outer form, and React's hydration of the page fails (issue 31 #2).
 * Read from the raw HTML: an HTML parser would drop the inner tag as the browser does.
 */
export function expectNoNestedForms(page: string, where = "") {
  let depth = 0;
  const nested: string[] = [];
  for (const m of page.matchAll(/<(\/?)form\b[^>]*>/gi)) {
    if (m[1]) depth = Math.max(depth - 1, 0);
    else if (++depth > 1) nested.push(m[0]);
  }
  expect(nested, `${where} forms nested in another form`).toEqual([]);
}
