import { describe, expect, it } from "vitest";
import { checkTemplate, renderTemplate, TEMPLATE_REQUIRED, TEMPLATE_TAGS, type TemplateValues } from "./template.server";

const values = Object.fromEntries(TEMPLATE_TAGS.map((t) => [t, `<${t}>`])) as TemplateValues;

describe("checking a template when it is saved", () => {
  it("accepts every tag of the spec, with the allowed filters, and keeps the rich text", () => {
    const html = `<p><strong>Hi</strong> ${TEMPLATE_TAGS.map((t) => `{{ ${t} }}`).join(" ")} {{ receiver_name | upcase }}</p>`;
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
});

describe("rendering", () => {
  it("fills the tags with escaped values, inlines the CSS, and gives a text version", async () => {
    const { html, text } = await renderTemplate("<p>Hi {{ receiver_name }}</p><p>{{ consignment_number }}</p>", values);
    expect(html).toContain("Hi &lt;receiver_name&gt;");
    expect(html).toMatch(/<p style="[^"]+">/);
    expect(text).toBe("Hi <receiver_name>\n<consignment_number>");
  });
});
