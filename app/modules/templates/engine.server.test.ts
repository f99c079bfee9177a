import { describe, expect, it } from "vitest";
import { TemplateRefused, fillTemplate, parseTemplate } from "./engine.server";
import { SAMPLE_VALUES, TEMPLATE_FILTERS, TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from "./tags";

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof TemplateRefused) return e.message;
    throw e;
  }
  throw new Error("expected a refusal");
};

describe("the engine", () => {
  it("knows no statement at all, so none can run even past the rules: include, render, layout, for, raw", () => {
    for (const name of ["include", "render", "layout", "for", "tablerow", "raw", "if", "assign", "liquid", "echo"]) {
      expect(refusal(() => parseTemplate(`{% ${name} 'package.json' %}`)), name).toBe(TEMPLATE_MESSAGES.statement(name));
    }
  });

  it("knows only the allowed filters", () => {
    for (const name of ["raw", "url_decode", "escape", "append", "prepend", "replace", "join", "split", "json", "date", "strip_html", "newline_to_br"]) {
      expect(refusal(() => parseTemplate(`{{ receiver_name | ${name} }}`)), name).toBe(TEMPLATE_MESSAGES.filter(name, "receiver_name"));
    }
    for (const name of TEMPLATE_FILTERS) expect(() => parseTemplate(`{{ receiver_name | ${name} }}`), name).not.toThrow();
  });

  it("looks up nothing but the tags: no prototype, no property of a value", () => {
    expect(fillTemplate("{{ receiver_name }}|{{ custom_reference | default: 'none' }}", SAMPLE_VALUES, "text")).toBe(`${SAMPLE_VALUES.receiver_name}|none`);
    for (const t of ["{{ constructor }}", "{{ __proto__ }}", "{{ receiver_name.constructor }}", "{{ receiver_name.size }}", "{{ receiver_name.first }}", "{{ hasOwnProperty }}"]) {
      expect(refusal(() => fillTemplate(t, SAMPLE_VALUES)), t).toMatch(/^Unknown tag/);
    }
  });

  it("escapes every value in HTML, and a filter cannot stop it", () => {
    const values = { ...SAMPLE_VALUES, receiver_name: "<img src=x onerror=alert(1)>", custom_reference: "" };
    expect(fillTemplate("<p>{{ receiver_name | upcase }} {{ custom_reference | default: '<b>x</b>' }}</p>", values)).toBe("<p>&lt;IMG SRC=X ONERROR=ALERT(1)&gt; &lt;b&gt;x&lt;/b&gt;</p>");
  });

  it("stops a filling-in past its output limit", () => {
    const values = { ...SAMPLE_VALUES, special_instructions: "x".repeat(1_000) };
    const limits = { ...TEMPLATE_LIMITS, output: 5_000 };
    expect(fillTemplate("{{ special_instructions }}".repeat(4), values, "html", limits)).toHaveLength(4_000);
    expect(refusal(() => fillTemplate("{{ special_instructions }}".repeat(6), values, "html", limits))).toBe(TEMPLATE_MESSAGES.outputTooLong);
  });

  it("stops a filling-in past its time: the clock is checked between the template's parts", () => {
    // no time at all: the first check stops it (a template can hold no loop, so this is the only way to be slow)
    expect(refusal(() => fillTemplate("<p>{{ receiver_name }}</p>", SAMPLE_VALUES, "html", { ...TEMPLATE_LIMITS, renderMs: -1 }))).toBe(TEMPLATE_MESSAGES.tooSlow);
  });

  it("stops a template past its length or its number of tags before parsing it", () => {
    expect(refusal(() => parseTemplate("x".repeat(11), "html", { ...TEMPLATE_LIMITS, chars: 10 }))).toBe(TEMPLATE_MESSAGES.tooLong);
    expect(refusal(() => parseTemplate("{{ receiver_name }}".repeat(3), "html", { ...TEMPLATE_LIMITS, tags: 2 }))).toBe(TEMPLATE_MESSAGES.tooManyTags);
    expect(() => parseTemplate("{{ receiver_name }}".repeat(2), "html", { ...TEMPLATE_LIMITS, tags: 2 })).not.toThrow();
  });

  it("answers a nested loop of 5,000 by 5,000 at once, refused, never run", () => {
    const started = performance.now();
    expect(refusal(() => fillTemplate("{% for i in (1..5000) %}{% for j in (1..5000) %}x{% endfor %}{% endfor %}", SAMPLE_VALUES))).toBe(TEMPLATE_MESSAGES.statement("for"));
    expect(performance.now() - started).toBeLessThan(500);
  });
});
