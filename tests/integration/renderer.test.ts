import { describe, expect, it } from "vitest";
import { createRenderer, RendererUnavailable } from "../../app/modules/printing/renderer.server";
import { chromiumChildren } from "../support/chromium";

const PAPER = { width: "100mm", height: "150mm" };

/** The renderer by itself: its warm-up and its deadline (printing through the routes: printing.test.ts). */
describe("warming the renderer up (the server does it right after it listens)", () => {
  it("starts the browser before any print, and the first print uses it", async () => {
    const renderer = createRenderer();
    try {
      expect(await chromiumChildren()).toEqual([]);
      await renderer.warm();
      const started = await chromiumChildren();
      expect(started.length).toBeGreaterThan(0);
      const pdf = await renderer.renderPdf("<p>first print</p>", PAPER);
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      // the same browser printed: no second one was started
      expect(await chromiumChildren()).toEqual(started);
    } finally {
      await renderer.close();
    }
    expect(await chromiumChildren()).toEqual([]);
  });

  it("a browser that cannot start does not fail the warm-up; the first print reports it", async () => {
    const renderer = createRenderer({ executablePath: "/nonexistent/chromium" });
    try {
      await expect(renderer.warm()).resolves.toBeUndefined();
      await expect(renderer.renderPdf("<p>x</p>", PAPER)).rejects.toBeInstanceOf(RendererUnavailable);
    } finally {
      await renderer.close();
    }
  });
});

describe("a render that takes too long", () => {
  it("fails with a clear message, and the renders waiting behind it still get their answer", async () => {
    const renderer = createRenderer({ timeoutMs: 1 });
    try {
      const paper = { width: "100mm", height: "150mm" };
      const both = await Promise.allSettled([renderer.renderPdf("<p>one</p>", paper), renderer.renderPdf("<p>two</p>", paper)]);
      for (const r of both) {
        expect(r.status).toBe("rejected");
        expect(String((r as PromiseRejectedResult).reason)).toMatch(/took longer than 0 s to render/);
      }
    } finally {
      await renderer.close();
    }
  });
});
