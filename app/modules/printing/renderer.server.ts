/**
 * The PDF renderer (DESIGN "Printing"): one headless Chromium per server, started on first use,
 * restarted if it dies, closed on shutdown, with a small pool of reused pages. Pages run no
 * scripts and every request they would make is refused, so nothing in an address can fetch
 * anything: documents are self-contained HTML (inline CSS, inline SVG barcodes). It is a
 * service of the load context, so the server (and a test server) owns and closes it.
 */
import { chromium, type Browser, type Page } from "playwright-core";
import { brandedError } from "../../utils/errors";

const POOL_SIZE = 2;
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

export class RendererUnavailable extends brandedError("RendererUnavailable") {
  constructor(cause: unknown) {
    super("Printing is unavailable: the PDF renderer (Chromium) could not be started. The HTML preview (?format=html) still works.");
    this.cause = cause;
  }
}

export interface PaperSize {
  width: string;
  height: string;
  margin?: { top?: string; bottom?: string; left?: string; right?: string };
}

export interface Renderer {
  /** One HTML document (a batch is one document of many pages) as one PDF. */
  renderPdf(html: string, paper: PaperSize): Promise<Buffer>;
  /** How many requests pages have tried to make (every one refused). */
  blockedRequests(): number;
  close(): Promise<void>;
}

export function createRenderer(options: { executablePath?: string } = {}): Renderer {
  let browser: Promise<Browser> | null = null;
  const idle: Page[] = [];
  let blocked = 0;
  let closed = false;

  const launch = (): Promise<Browser> => {
    if (closed) return Promise.reject(new RendererUnavailable(new Error("renderer closed")));
    browser ??= chromium
      .launch({ executablePath: options.executablePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ARGS })
      .then((b) => {
        b.on("disconnected", () => {
          // a crashed or killed browser: the next render starts a new one
          browser = null;
          idle.length = 0;
        });
        return b;
      })
      .catch((e: unknown) => {
        browser = null;
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

  return {
    async renderPdf(html, paper) {
      const b = await launch();
      const page = idle.pop() ?? (await newPage(b));
      let healthy = false;
      try {
        await page.setContent(html, { waitUntil: "load" });
        const pdf = await page.pdf({ width: paper.width, height: paper.height, margin: paper.margin ?? { top: "0", bottom: "0", left: "0", right: "0" }, printBackground: true });
        healthy = true;
        return pdf;
      } finally {
        if (healthy && !page.isClosed() && idle.length < POOL_SIZE && b.isConnected()) idle.push(page);
        else await page.context().close().catch(() => {});
      }
    },
    blockedRequests: () => blocked,
    async close() {
      closed = true;
      const b = browser;
      browser = null;
      idle.length = 0;
      if (b) await (await b.catch(() => null))?.close().catch(() => {});
    },
  };
}
