import { describe, expect, it } from "vitest";
import { sanitizeNoticeHtml } from "./notices.server";

// the sanitised text is kept per input (notices.server.ts): what is kept must be what sanitising gives
describe("sanitizeNoticeHtml", () => {
  const dirty = `<p onclick="steal()">Hi <script>alert(1)</script><a href="javascript:alert(2)">x</a> <a href="https://example.com">site</a><img src="https://evil.example/x.png"></p>`;
  const clean = `<p>Hi <a rel="noopener noreferrer" target="_blank">x</a> <a href="https://example.com" rel="noopener noreferrer" target="_blank">site</a></p>`;

  it("drops scripts, handlers, bad links and images, the first time and every time after", () => {
    expect(sanitizeNoticeHtml(dirty)).toBe(clean);
    expect(sanitizeNoticeHtml(dirty)).toBe(clean);
  });

  it("answers each text for itself after many others have been kept and let go", () => {
    for (let i = 0; i < 1_200; i++) expect(sanitizeNoticeHtml(`<p>${i}<script>${i}</script></p>`)).toBe(`<p>${i}</p>`);
    expect(sanitizeNoticeHtml(dirty)).toBe(clean);
    expect(sanitizeNoticeHtml(`<p>7<script>7</script></p>`)).toBe("<p>7</p>");
  });
});
