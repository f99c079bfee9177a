import { test as base, expect, type Browser, type BrowserContext } from "@playwright/test";

export { expect };
export type { APIRequestContext, Browser, BrowserContext, Locator, Page, Request } from "@playwright/test";

const REFUSAL = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

type Options = {
  /**
   * Console errors a test provokes on purpose (a 4xx the page is meant to log, say), one pattern
   * each. Empty by default: a hydration mismatch, an uncaught error or a CSP refusal fails the test.
   */
  expectedConsoleErrors: RegExp[];
};

/**
 * Playwright's `test` with the anchors' habit (issue 31 #5): every page of every context the test
 * opens, its own `page` and those of `browser.newContext()`/`newPage()`, is watched, and the test
 * fails on any console error or uncaught page error, not only where an axe check looks.
 */
export const test = base.extend<Options & { consoleGuard: void }>({
  expectedConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ context, browser, expectedConsoleErrors }, use) => {
      const seen: Array<{ line: string; refusedUrl?: string }> = [];
      // pages answered with a 4xx on purpose: a form refused without JavaScript shown again with its
      // messages, another customer's page not found, a label not printed yet; the test reads the page.
      // A script, stylesheet or image answered 4xx still fails, as does any 5xx.
      const refusedPages = new Set<string>();
      const watch = (c: BrowserContext) => {
        c.on("response", (r) => {
          const status = r.status();
          if (r.request().resourceType() === "document" && status >= 400 && status < 500) refusedPages.add(r.url());
        });
        c.on("console", (m) => {
          if (m.type() !== "error") return;
          // a refused form or call is answered 4xx on purpose (Remix's .data, the app's /api JSON):
          // the browser logs the status, the page handles it; a 5xx or any other failure still counts
          if (REFUSAL.test(m.text()) && /\.data(\?|$)|\/api\//.test(m.location().url)) return;
          const where = m.location().url ? ` (${m.location().url})` : "";
          // decided at the end: the response event and the console line come in either order
          seen.push({ line: `console: ${m.text()}${where} on ${m.page()?.url() ?? "?"}`, refusedUrl: REFUSAL.test(m.text()) ? m.location().url : undefined });
        });
        c.on("weberror", (e) => seen.push({ line: `page error: ${e.error().message} on ${e.page()?.url() ?? "?"}` }));
      };
      watch(context);
      // contexts a test makes itself (another time zone, JavaScript off, a second user)
      const b = browser as Browser & { newContext: Browser["newContext"] };
      const original = b.newContext;
      b.newContext = async (...args) => {
        const made = await original.apply(b, args);
        watch(made);
        return made;
      };
      try {
        await use();
      } finally {
        b.newContext = original;
      }
      const unexpected = seen
        .filter((s) => !(s.refusedUrl && refusedPages.has(s.refusedUrl)))
        .map((s) => s.line)
        .filter((s) => !expectedConsoleErrors.some((re) => re.test(s)));
      expect(unexpected, "console errors or page errors during the test").toEqual([]);
    },
    { auto: true },
  ],
});
