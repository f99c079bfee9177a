/**
 * The PDF renderer (DESIGN "Printing"): one headless Chromium per server, started on first use,
 * restarted if it dies, closed on shutdown, rendering one document at a time in a reused page.
 * Pages run no scripts and every request they would make is refused, so nothing in an address
 * can fetch anything: documents are self-contained HTML (inline CSS, inline SVG barcodes). It is
 * a service of the load context, so the server (and a test server) owns and closes it.
 */
import type { Browser, Page } from "playwright-core";
import { brandedError } from "../../utils/errors";
import { chooseBrowser, launchTarget, type BrowserChoice } from "./browser-path.server";

/**
 * --single-process: the renderer and the print compositor run in the browser process, which halves
 * a one-page PDF (27 to 15 ms measured here: the time went in passing the page between
 * processes). It is how headless Chromium is commonly run for PDFs in serverless functions. What
 * it gives up is isolation between pages, and pages here only ever hold our own documents, with
 * scripts off and every request refused; a crash takes the whole browser, which is restarted.
 */
const ARGS = ["--single-process", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

export class RendererUnavailable extends brandedError("RendererUnavailable") {
  constructor(cause: unknown, message = "Printing is unavailable: the PDF renderer (Chromium) could not be started. The HTML preview (?format=html) still works.") {
    super(message);
    this.cause = cause;
  }
}

/** Longest a render may take before the browser is taken for hung, closed and started again. */
const RENDER_TIMEOUT_MS = 120_000;

export interface PaperSize {
  width: string;
  height: string;
  margin?: { top?: string; bottom?: string; left?: string; right?: string };
}

export interface Renderer {
  /** One HTML document (a batch is one document of many pages) as one PDF. */
  renderPdf(html: string, paper: PaperSize): Promise<Buffer>;
  /** Starts the browser and readies a page now, so the first print does not pay the cold start. */
  warm(): Promise<void>;
  /** How many requests pages have tried to make (every one refused). */
  blockedRequests(): number;
  /** which browser it prints with (browser-path.server.ts) */
  browser: BrowserChoice;
  /**
   * Whether it could print now, for the readiness check (GET /readyz): "ready" once a browser is
   * up, "idle" before the first start, "failed" when the last start failed (the next print retries).
   */
  state(): RendererState;
  close(): Promise<void>;
}

export type RendererState = "idle" | "starting" | "ready" | "failed" | "closed";

/** executablePath: this browser, as CHROMIUM_PATH would; browser: a choice made elsewhere. */
export function createRenderer(options: { executablePath?: string; browser?: BrowserChoice; timeoutMs?: number } = {}): Renderer {
  const timeoutMs = options.timeoutMs ?? RENDER_TIMEOUT_MS;
  const choice: BrowserChoice = options.browser ?? (options.executablePath ? { source: "CHROMIUM_PATH", executablePath: options.executablePath } : chooseBrowser());
  let browser: Promise<Browser> | null = null;
  // the page of the last render, kept for the next (renders run one at a time)
  let spare: Page | null = null;
  let blocked = 0;
  let closed = false;
  // what state() reports: the browser that is up, and whether the last start failed
  let up: Browser | null = null;
  let failed = false;

  const launch = (): Promise<Browser> => {
    if (closed) return Promise.reject(new RendererUnavailable(new Error("renderer closed")));
    browser ??= launchTarget(choice)
      // the server's own shutdown closes the browser (after the renders in flight), not Playwright's
      // Playwright loaded at the first render, not at every process's start
      .then(async (target) => (await import("playwright-core")).chromium.launch({ ...target, args: ARGS, handleSIGTERM: false, handleSIGINT: false, handleSIGHUP: false }))
      .then((b) => {
        up = b;
        failed = false;
        b.on("disconnected", () => {
          // a crashed or killed browser: the next render starts a new one
          browser = null;
          spare = null;
          if (up === b) up = null;
        });
        return b;
      })
      .catch((e: unknown) => {
        browser = null;
        failed = true;
        throw new RendererUnavailable(e);
      });
    return browser;
  };

  const newPage = async (b: Browser) => {
    const context = await b.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.route("**/*", (route) => {
      blocked++;
      return route.abort("blockedbyclient");
    });
    return page;
  };

  // renders wait for each other, so a hung browser must not hold the queue: past the deadline it
  // is closed (the next render starts a new one) and this render fails
  const renderOnce = async (b: Browser, html: string, paper: PaperSize) => {
    let timer: NodeJS.Timeout | undefined;
    const render = renderInPage(b, html, paper);
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new RendererUnavailable(null, `Printing is unavailable: the document took longer than ${Math.round(timeoutMs / 1000)} s to render. Please try again.`));
        render.catch(() => {});
        void b.close().catch(() => {});
      }, timeoutMs);
    });
    try {
      return await Promise.race([render, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };

  const renderInPage = async (b: Browser, html: string, paper: PaperSize) => {
    const page = spare ?? (await newPage(b));
    spare = null;
    let healthy = false;
    try {
      await page.setContent(html, { waitUntil: "load" });
      const pdf = await page.pdf({ width: paper.width, height: paper.height, margin: paper.margin ?? { top: "0", bottom: "0", left: "0", right: "0" }, printBackground: true });
      healthy = true;
      return pdf;
    } finally {
      if (healthy && !page.isClosed() && b.isConnected()) spare = page;
      else await page.context().close().catch(() => {});
    }
  };

  // one render at a time: in one process, Chromium crashes when pages render concurrently
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => {});
    return run;
  };

  return {
    renderPdf: (html, paper) =>
      serially(async () => {
        const b = await launch();
        try {
          return await renderOnce(b, html, paper);
        } catch (e) {
          if (b.isConnected() || closed || e instanceof RendererUnavailable) throw e;
          // the browser died under this render (before its "disconnected" event was handled):
          // forget it and render once more in a new one
          if (browser && (await browser.catch(() => null)) === b) browser = null;
          spare = null;
          return renderOnce(await launch(), html, paper);
        }
      }),
    // a failed warm-up is not an error: the first print tries again and reports it
    warm: () =>
      serially(async () => {
        spare ??= await newPage(await launch());
      }).catch(() => {}),
    blockedRequests: () => blocked,
    browser: choice,
    state: () => (closed ? "closed" : up?.isConnected() ? "ready" : browser ? "starting" : failed ? "failed" : "idle"),
    async close() {
      closed = true;
      await queue; // renders already asked for finish (each within its deadline)
      const b = browser;
      browser = null;
      spare = null;
      if (b) await (await b.catch(() => null))?.close().catch(() => {});
    },
  };
}
