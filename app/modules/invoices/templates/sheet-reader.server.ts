/**
 * XLSX and XLS rows read in a worker thread with a heap of its own (docs/decisions/024, issue 35
 * finding 4): a spreadsheet that unpacks to gigabytes took a web process to 4.27 GB and killed it.
 * The worker (sheet-worker/sheet-worker.mjs) checks the zip's parts and bounds their inflation;
 * should anything still need more memory than SHEET_WORKER_HEAP_MB, the thread dies and the
 * reader answers 'The file is too large once unpacked', while this process goes on serving.
 * Rows come in batches of a few hundred, at most two batches ahead of the reader.
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PROJECT_ROOT } from "../../../../db/paths";
import { FAILED_TO_READ, FileReadError, INVALID_FILE_FORMAT, longCell, noSheet, TOO_LARGE_UNPACKED } from "./read-errors";
import { rowLabel, rowOf, type Row, type Rows } from "./rows";

/** The worker's old generation: a 10 MB XLSX's shared strings and a batch of rows fit well within it. */
export const SHEET_WORKER_HEAP_MB = 384;

// a plain-JavaScript file shipped beside the code, found from the root as migrations are (db/paths.ts)
const WORKER_FILE = path.join(PROJECT_ROOT, "app/modules/invoices/templates/sheet-worker/sheet-worker.mjs");

type Refusal = { t: "refused"; code: "too-large" | "invalid" | "no-sheet" | "failed" | "long-cell"; row?: number; sheet?: string; detail?: string };
type Message = { t: "ready"; rows: number } | { t: "rows"; rows: [number, string, string[], number][] } | { t: "end" } | Refusal | { t: "died"; error: unknown };

/**
 * The rows of the XLSX or XLS at `file`. Resolves once the worker has checked the file (and,
 * with `meter`, counted its rows), so a bomb is refused before the first row; rejects with
 * FileReadError for a file it will not read.
 */
export async function sheetRows(file: string, format: "XLSX" | "XLS", sheets: string[], meter: { fraction: number; rows?: number } | undefined): Promise<Rows> {
  const worker = takeWorker();
  worker.postMessage({ path: file, format, sheets, count: !!meter });
  const queue: Message[] = [];
  let wake: (() => void) | null = null;
  const push = (m: Message) => {
    queue.push(m);
    wake?.();
    wake = null;
  };
  worker.on("message", (m: Message) => push(m));
  worker.on("error", (error) => push({ t: "died", error }));
  worker.on("exit", (code) => push({ t: "died", error: new Error(`the worker exited (${code})`) }));
  const next = async (): Promise<Message> => {
    while (!queue.length) await new Promise<void>((go) => (wake = go));
    return queue.shift()!;
  };
  const fail = (m: Message): never => {
    void worker.terminate();
    if (m.t === "refused") {
      if (m.detail) console.warn("a spreadsheet was refused:", m.detail);
      throw new FileReadError(refusalText(m, sheets));
    }
    if (m.t === "died") {
      const code = (m.error as { code?: string } | null)?.code;
      if (code === "ERR_WORKER_OUT_OF_MEMORY") throw new FileReadError(TOO_LARGE_UNPACKED);
      console.warn("the spreadsheet worker failed", m.error);
    }
    throw new FileReadError(FAILED_TO_READ);
  };

  const first = await next();
  if (first.t !== "ready") fail(first);
  const total = first.t === "ready" ? first.rows : 0;
  if (meter && total > 0) meter.rows = total;

  return (async function* rows(): AsyncGenerator<Row> {
    let kept = false;
    try {
      for (;;) {
        const m = await next();
        if (m.t === "end") {
          keepWorker(worker);
          kept = true;
          return;
        }
        if (m.t !== "rows") fail(m);
        else {
          worker.postMessage("more");
          for (const [n, sheet, cells, read] of m.rows) {
            if (meter && total > 0) meter.fraction = Math.min(1, read / total);
            const r = rowOf(n, cells, sheet);
            if (r) yield r;
          }
        }
      }
    } finally {
      // a reader that stops early (an import's 100th problem) ends the worker too
      if (!kept) void worker.terminate();
    }
  })();
}

const startWorker = () =>
  new Worker(WORKER_FILE, {
    workerData: { sheetWorker: true },
    resourceLimits: { maxOldGenerationSizeMb: SHEET_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });

/**
 * Workers kept between files: loading the XLSX reader takes a worker hundreds of milliseconds, so
 * one that ended its last file cleanly waits, unreferenced (holding no process open), for the next
 * for up to IDLE_MS. One refused, failed or stopped early is ended: its state is not trusted.
 */
const IDLE_MS = 60_000;
const IDLE_KEPT = 2;
const idle: { worker: Worker; timer: NodeJS.Timeout }[] = [];
const quiet = (worker: Worker) => worker.removeAllListeners("message").removeAllListeners("error").removeAllListeners("exit");

function takeWorker(): Worker {
  const kept = idle.pop();
  if (!kept) return startWorker();
  clearTimeout(kept.timer);
  quiet(kept.worker).ref();
  return kept.worker;
}

function keepWorker(worker: Worker) {
  quiet(worker).unref();
  if (idle.length >= IDLE_KEPT) return void worker.terminate();
  const entry = { worker, timer: setTimeout(() => drop(), IDLE_MS).unref() };
  function drop() {
    const at = idle.indexOf(entry);
    if (at !== -1) idle.splice(at, 1);
    clearTimeout(entry.timer);
    void worker.terminate();
  }
  worker.once("error", drop).once("exit", drop);
  idle.push(entry);
}

function refusalText(m: Refusal, sheets: string[]): string {
  if (m.code === "too-large") return TOO_LARGE_UNPACKED;
  if (m.code === "no-sheet" && sheets.length) return noSheet(sheets);
  if (m.code === "long-cell") return longCell(rowLabel({ row: m.row ?? 0, ...(m.sheet ? { sheet: m.sheet } : {}) }));
  if (m.code === "invalid") return INVALID_FILE_FORMAT;
  return FAILED_TO_READ;
}
