import { describe, expect, it } from "vitest";
import { autofocusFirstInvalid } from "./autofocus-invalid";

describe("autofocusFirstInvalid", () => {
  it("puts autofocus on the first field marked invalid in main, and only there", () => {
    const html = `<header><input name="q" aria-invalid="true"/></header><main><button autofocus="">Save</button><input id="a" class="input"/><input id="subject" name="subject" aria-invalid="true" aria-describedby="x"/><textarea aria-invalid="true"></textarea></main>`;
    const out = autofocusFirstInvalid(html);
    expect(out).toContain(`<input autofocus="" id="subject" name="subject" aria-invalid="true"`);
    expect(out.match(/autofocus/g)).toHaveLength(1);
    expect(out).toContain(`<header><input name="q" aria-invalid="true"/></header>`);
  });

  it("leaves a page with no invalid control as it was", () => {
    const html = `<main><button autofocus="">Save</button><table aria-invalid="true"></table></main>`;
    expect(autofocusFirstInvalid(html)).toBe(html);
    expect(autofocusFirstInvalid("<main><p>ok</p></main>")).toBe("<main><p>ok</p></main>");
  });
});
