/**
 * The worker thread that reads an uploaded XLSX or XLS (docs/decisions/024): started by
 * sheet-reader.server.ts with a heap limit of its own (resourceLimits), so a spreadsheet that
 * needs more memory than it should ends this thread, never the web process or the job worker.
 * XLSX: exceljs's streaming WorkbookReader over the zip's parts, each checked and inflated with a
 * bound (zip-parts.mjs); shared strings capped in number; XLS: SheetJS (@e965/xlsx), which reads
 * the whole file (the 10 MB upload limit keeps it small; an XLS is not compressed). Every cell is
 * capped at MAX_CELL_CHARS. Rows go to the parent in batches, at most two ahead of what it took,
 * so a slow reader (the import writes as it reads) holds the worker back rather than queueing.
 * Messages to the parent: ready {rows}, rows {rows: [number, sheet, cells, rows read]}, end, refused {code, row?, sheet?}.
 */
import { open, readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
// the streaming reader alone: all of exceljs takes twice as long to load, and a worker loads it each time
import WorkbookReader from "exceljs/lib/stream/xlsx/workbook-reader.js";
import { countRows, NotAZip, openPart, TooLargeUnpacked, zipParts } from "./zip-parts.mjs";

/** Excel's own limit for a cell: a longer one is not from a spreadsheet. */
export const MAX_CELL_CHARS = 32_767;
/** Shared strings, held in memory for the whole read. */
export const MAX_SHARED_STRINGS = 1_000_000;
const BATCH = 500;
const AHEAD = 2;

class Refused extends Error {
  constructor(code, where = {}) {
    super(code);
    this.code = code;
    this.where = where;
  }
}

/** An exceljs or SheetJS cell value as text: a formula's cached result, a date's day, rich text's words. */
export function cellText(v) {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : v.toISOString().slice(0, 10);
  if (typeof v === "number") return String(Math.round(v * 1e9) / 1e9);
  if (typeof v === "string" || typeof v === "boolean") return String(v);
  if (typeof v === "object") {
    if ("result" in v) return cellText(v.result);
    if ("formula" in v || "sharedFormula" in v) return "";
    if (Array.isArray(v.richText)) return v.richText.map((t) => t.text).join("");
    if ("text" in v) return cellText(v.text);
    if ("error" in v) return String(v.error);
  }
  return String(v);
}

const wantedSheet = (sheets, name) => sheets.length === 0 || sheets.some((s) => s.trim().toLowerCase() === name.trim().toLowerCase());

/** Sends rows in batches, waiting for the parent once AHEAD batches are unread ("more" says one was). */
function sender(port) {
  let batch = [];
  let ahead = 0;
  let wake = null;
  let read = 0;
  const flush = async () => {
    if (!batch.length) return;
    while (ahead >= AHEAD) await new Promise((go) => (wake = go));
    ahead += 1;
    port.postMessage({ t: "rows", rows: batch });
    batch = [];
  };
  return {
    /** one physical row read; `cells` null when it is blank (only counted) */
    async row(number, sheet, cells) {
      read += 1;
      if (cells) {
        const long = cells.findIndex((c) => c !== undefined && c.length > MAX_CELL_CHARS);
        if (long !== -1) throw new Refused("long-cell", { row: number, sheet });
        batch.push([number, sheet, cells, read]);
      }
      if (batch.length >= BATCH || (!cells && read % BATCH === 0)) await flush();
    },
    flush,
    more() {
      ahead -= 1;
      wake?.();
      wake = null;
    },
  };
}

const blank = (cells) => !cells.some((c) => c !== undefined && c.trim() !== "");

/** A WorkbookReader over the checked parts: the parts the sheets depend on first, then each sheet streamed. */
function workbookReader(path, fh, parts) {
  const byName = new Map(parts.map((p) => [p.name, p]));
  const reader = new WorkbookReader(path, { worksheets: "emit", sharedStrings: "cache", styles: "cache", hyperlinks: "ignore", entries: "ignore" });
  const part = (name) => (byName.has(name) ? openPart(fh, byName.get(name)) : null);
  // (exceljs issue 3064: its own one-pass unzip sometimes read a sheet before the workbook)
  reader.parse = async function* parse() {
    const rels = await part("xl/_rels/workbook.xml.rels");
    if (rels) await this._parseRels(rels);
    const workbook = await part("xl/workbook.xml");
    if (!workbook) throw new Error("xl/workbook.xml is missing");
    await this._parseWorkbook(workbook);
    // exceljs caches every string as it parses: their number is checked between chunks, as they arrive
    const strings = byName.has("xl/sharedStrings.xml")
      ? await openPart(fh, byName.get("xl/sharedStrings.xml"), () => {
          if ((this.sharedStrings?.length ?? 0) > MAX_SHARED_STRINGS) throw new TooLargeUnpacked();
        })
      : null;
    if (strings) yield* this._parseSharedStrings(strings);
    const styles = await part("xl/styles.xml");
    if (styles) await this._parseStyles(styles);
    const sheets = parts
      .map((p) => ({ p, no: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(p.name)?.[1] }))
      .filter((s) => s.no)
      .sort((a, b) => Number(a.no) - Number(b.no));
    for (const s of sheets) yield* this._parseWorksheet(await openPart(fh, s.p), s.no);
  };
  return reader;
}

async function readXlsx(port, send, { path, sheets, count }) {
  const fh = await open(path, "r");
  try {
    const parts = await zipParts(fh);
    port.postMessage({ t: "ready", rows: count ? await countRows(fh, parts) : 0 });
    let read = false;
    for await (const ws of workbookReader(path, fh, parts)) {
      const wanted = wantedSheet(sheets, ws.name);
      read ||= wanted;
      for await (const row of ws) {
        if (!wanted) {
          await send.row(row.number, ws.name, null);
          continue;
        }
        const cells = Array.isArray(row.values) ? row.values.slice(1).map(cellText) : [];
        await send.row(row.number, ws.name, blank(cells) ? null : cells);
      }
    }
    if (!read && sheets.length) throw new Refused("no-sheet");
  } finally {
    await fh.close();
  }
}

async function readXls(port, send, { path, sheets }) {
  // loaded only for the rare legacy file
  const XLSX = await import("@e965/xlsx");
  const book = XLSX.read(await readFile(path), { type: "buffer", cellDates: true, cellFormula: false, cellHTML: false, dense: true });
  const names = book.SheetNames.filter((n) => wantedSheet(sheets, n));
  if (!names.length) throw new Refused(sheets.length ? "no-sheet" : "failed");
  const grids = names.map((name) => {
    const sheet = book.Sheets[name];
    if (!sheet["!ref"]) return { name, grid: [], first: { r: 0, c: 0 } };
    const range = XLSX.utils.decode_range(sheet["!ref"]);
    return { name, first: range.s, grid: XLSX.utils.sheet_to_json(sheet, { header: 1, raw: true, blankrows: true, defval: "" }) };
  });
  port.postMessage({ t: "ready", rows: grids.reduce((n, g) => n + g.grid.length, 0) });
  for (const { name, first, grid } of grids) {
    for (let i = 0; i < grid.length; i++) {
      const cells = Array(first.c).fill("").concat((grid[i] ?? []).map(cellText));
      grid[i] = null;
      await send.row(first.r + i + 1, name, blank(cells) ? null : cells);
    }
  }
}

async function run(port, send, job) {
  try {
    await (job.format === "XLS" ? readXls : readXlsx)(port, send, job);
    await send.flush();
    port.postMessage({ t: "end" });
  } catch (e) {
    const refused =
      e instanceof Refused ? { code: e.code, ...e.where } : e instanceof TooLargeUnpacked || e?.code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError ? { code: "too-large" } : { code: "invalid", detail: e instanceof NotAZip ? e.message : String(e?.message ?? e) };
    port.postMessage({ t: "refused", ...refused });
  }
}

/**
 * One file at a time: a job message starts it, "more" lets its rows run on. The parent keeps a
 * worker that ended its file cleanly for the next one (loading the reader takes hundreds of
 * milliseconds) and ends any other.
 */
if (parentPort && workerData?.sheetWorker) {
  let send = null;
  parentPort.on("message", (m) => {
    if (m === "more") return send?.more();
    send = sender(parentPort);
    void run(parentPort, send, m);
  });
}
