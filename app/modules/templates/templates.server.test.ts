import { afterEach, describe, expect, it, vi } from "vitest";
import { ESCAPES, THE_REPORTED_SUBJECT } from "../../../tests/support/template-escapes";
import { SAMPLE_VALUES, TEMPLATE_LIMITS, TEMPLATE_MESSAGES, TEMPLATE_REQUIRED, TEMPLATE_TAGS, type TemplateValues } from "./tags";
import { TemplateRenderError, checkLine, checkTemplate, renderLine, renderTemplate } from "./templates.server";

const values = Object.fromEntries(TEMPLATE_TAGS.map((t) => [t, `<${t}>`])) as TemplateValues;
const ALL = Object.entries(ESCAPES).flatMap(([kind, payloads]) => payloads.map((p) => [kind, p] as const));

afterEach(() => vi.restoreAllMocks());

describe("checking a template when it is saved", () => {
  it("accepts every tag of the spec, with the allowed filters, and keeps the rich text", () => {
    const html = `<p><strong>Hi</strong> ${TEMPLATE_TAGS.map((t) => `{{ ${t} }}`).join(" ")} {{ receiver_name | upcase }} {{ custom_reference | default: 'none' | truncate: 20, '...' }}</p>`;
    expect(checkTemplate(html)).toEqual({ ok: true, html });
  });

  it("refuses an unknown tag, a statement, a filter not allowed, broken syntax and an empty template, each with its message", () => {
    expect(checkTemplate("<p>{{ receiver_email }}</p>")).toMatchObject({ ok: false, message: expect.stringContaining("Unknown tag {{ receiver_email }}") });
    expect(checkTemplate("<p>{% for x in y %}{% endfor %}</p>")).toMatchObject({ ok: false, message: expect.stringContaining("{% for %} is not allowed") });
    expect(checkTemplate("<p>{{ receiver_name | date }}</p>")).toMatchObject({ ok: false, message: "The filter date is not allowed in {{ receiver_name }}" });
    expect(checkTemplate("<p>{{ receiver_name </p>")).toMatchObject({ ok: false, message: expect.stringContaining("The template cannot be read") });
    expect(checkTemplate("<p><br></p>")).toEqual({ ok: false, message: TEMPLATE_REQUIRED });
  });

  it("sanitises what it stores: no script, handler or javascript: link survives", () => {
    const check = checkTemplate(`<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(2)">x</a><img src="https://cdn.example/logo.png" onerror="y()"></p>`);
    expect(check.ok).toBe(true);
    const html = (check as { html: string }).html;
    expect(html).not.toMatch(/script|onclick|onerror|javascript:/);
    expect(html).toContain('src="https://cdn.example/logo.png"');
  });

  it.each(ALL)("refuses %s: %s, in a part, hidden in an attribute, and as a subject", (_kind, payload) => {
    for (const input of [`<p>${payload}</p>`, `<p><b title="${payload.replaceAll('"', "'")}">z</b></p>`, `<img src="https://cdn.example/{{ receiver_name }}.png" alt="${payload.replaceAll('"', "'")}">`]) {
      const check = checkTemplate(input);
      expect(check, input).toMatchObject({ ok: false, message: expect.stringMatching(/\S/) });
    }
    expect(checkLine(`Labels ${payload}`)).toMatchObject({ ok: false });
  });

  it("names what is wrong: the statement, the filter, the tag", () => {
    expect(checkLine(THE_REPORTED_SUBJECT)).toEqual({ ok: false, message: TEMPLATE_MESSAGES.statement("include") });
    expect(checkTemplate("<p>{% render 'package.json' %}</p>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.statement("render") });
    expect(checkTemplate("<p>{% layout '/etc/passwd' %}</p>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.statement("layout") });
    expect(checkTemplate("<p>{{ receiver_name | raw }}</p>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.filter("raw", "receiver_name") });
    expect(checkTemplate('<p>{{ "%3E" | url_decode }}</p>')).toEqual({ ok: false, message: TEMPLATE_MESSAGES.filter("url_decode", '"%3E"') });
    expect(checkTemplate("<p>{{ receiver_name | default: constructor }}</p>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.filterArgument("default", "receiver_name") });
    expect(checkTemplate("<p>{{ __proto__ }}</p>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.unknownTag("__proto__") });
    expect(checkTemplate(`<p>${"{{ receiver_name }}".repeat(TEMPLATE_LIMITS.tags + 1)}</p>`)).toEqual({ ok: false, message: TEMPLATE_MESSAGES.tooManyTags });
    expect(checkTemplate(`<p>${"x".repeat(TEMPLATE_LIMITS.chars)}</p>`)).toEqual({ ok: false, message: TEMPLATE_MESSAGES.tooLong });
  });

  it("a subject is one plain line: spaces collapsed, markup refused, the stored line is the checked line", () => {
    expect(checkLine("  Labels  for\n{{ consignment_number | upcase }} ")).toEqual({ ok: true, line: "Labels for {{ consignment_number | upcase }}" });
    expect(checkLine("Labels for {{ consignment_number }} <b title=x>z</b>")).toEqual({ ok: false, message: TEMPLATE_MESSAGES.plainLine });
    expect(checkLine("Tom & Jerry > 5")).toEqual({ ok: true, line: "Tom & Jerry > 5" });
  });

  it("what is stored passes the check unchanged (checking twice changes nothing)", () => {
    for (const input of ['<p onclick="x()">Dear {{ receiver_name | default: "customer" }}<script>1</script></p>', "<p>Top &amp; tail <a href='https://x.example'>{{ carrier_name }}</a></p>", "<h1 style='color:#f00'>{{ consignment_number }}</h1>"]) {
      const first = checkTemplate(input);
      expect(first.ok, input).toBe(true);
      const stored = (first as { html: string }).html;
      expect(checkTemplate(stored), input).toEqual({ ok: true, html: stored });
    }
  });
});

describe("rendering", () => {
  it("fills the tags with escaped values, inlines the CSS, and gives a text version", async () => {
    const { html, text } = await renderTemplate("<p>Hi {{ receiver_name }}</p><p>{{ consignment_number }}</p>", values);
    expect(html).toContain("Hi &lt;receiver_name&gt;");
    expect(html).toMatch(/<p style="[^"]+">/);
    expect(text).toBe("Hi <receiver_name>\n<consignment_number>");
  });

  it("a value cannot become markup: escaped in text and attributes, a javascript: link dropped once filled in", async () => {
    const evil = { ...SAMPLE_VALUES, receiver_name: '"><script>alert(1)</script>', carrier_web_url: "javascript:alert(2)" };
    const { html } = await renderTemplate('<p><a href="{{ carrier_web_url }}" title="{{ receiver_name }}">{{ receiver_name }}</a></p>', evil);
    expect(html).not.toMatch(/<script|javascript:/);
    expect(html).toContain("&lt;script&gt;");
  });

  it("a subject is filled in as plain text, values as they are", async () => {
    expect(await renderLine("For {{ receiver_name | upcase }} & co", { ...SAMPLE_VALUES, receiver_name: "a<b> & c" })).toBe("For A<B> & C & co");
  });

  it.each(ALL)("a stored template that breaks the rules is never run (%s: %s): TemplateRenderError, logged", async (_kind, payload) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const started = performance.now();
    await expect(renderTemplate(`<p>${payload}</p>`, SAMPLE_VALUES)).rejects.toBeInstanceOf(TemplateRenderError);
    await expect(renderLine(payload, SAMPLE_VALUES)).rejects.toThrow(/^The template could not be filled in: /);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^\[templates\] The template could not be filled in/));
  });
});
