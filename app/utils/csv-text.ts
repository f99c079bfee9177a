import { longCell, MAX_CELL_CHARS } from "./upload-limits";

/**
 * Why text cannot be CSV, found in one pass over it whole or in pieces as they are read (a file
 * streamed from disk): bytes that are not text (a PNG, a spreadsheet: looked for in its first
 * 64 KB), a NUL character (no database text holds it), a closing quote followed by more text, a
 * cell longer than MAX_CELL_CHARS (docs/decisions/024), a quote still open at the end, each with
 * its line; and, when `maxRecordChars` is given, a record
 * longer than that (a streaming parser holds a record whole until it ends: a file of one endless
 * line or one endless quoted cell would otherwise be held, and parsed again, piece after piece).
 */
const BINARY_HEAD = 64 * 1024;
/** how far past a closing quote the next character is looked for (spaces and tabs skipped) */
const AFTER_CLOSE = 64;

// U+FFFD is what invalid UTF-8 decodes to; control characters other than tab and newlines are not in text files
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const NOT_TEXT = /[\uFFFD\u0001-\u0008\u000B\u000C\u000E-\u001F]/;
export const NOT_CSV_TEXT = "The file is not a CSV text file.";

/** Text that holds what no text file does, judged by its start. */
export const looksBinary = (head: string) => NOT_TEXT.test(head.slice(0, BINARY_HEAD));

export class CsvTextCheck {
  private line = 1;
  private quoteLine = 0;
  private inQuotes = false;
  private atFieldStart = true;
  /** in quotes, a quote ended the last piece: an escaped quote or the closing one, as the next piece starts */
  private quoteAtEnd = false;
  /** characters looked at since a quote closed (-1: none closed) */
  private afterClose = -1;
  private headSeen = 0;
  private recordChars = 0;
  /** the characters of the cell being read (its quotes and a doubled quote's second left out) */
  private cell = 0;
  problem: string | null = null;

  constructor(private readonly maxRecordChars = Infinity) {}

  /** Reads the next piece; answers the first problem found so far. */
  feed(text: string): string | null {
    if (this.problem) return this.problem;
    if (this.headSeen < BINARY_HEAD) {
      const head = text.slice(0, BINARY_HEAD - this.headSeen);
      this.headSeen += head.length;
      if (NOT_TEXT.test(head)) return (this.problem = NOT_CSV_TEXT);
    }
    let i = 0;
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      if (text[0] === '"') {
        i = 1;
        if (++this.cell > MAX_CELL_CHARS) return (this.problem = longCell(`line ${this.quoteLine}`));
      } else this.closeQuote();
    }
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (this.afterClose >= 0) {
        if (c === " " || c === "\t") {
          if (++this.afterClose >= AFTER_CLOSE) this.afterClose = -1;
        } else {
          this.afterClose = -1;
          if (c !== "," && c !== "\r" && c !== "\n" && c !== "\u2028" && c !== "\u2029") return (this.problem = `Line ${this.line} has text after a closing quote.`);
        }
      }
      if (c === "\u0000") return (this.problem = `Line ${this.line} contains a NUL character, which cannot be imported.`);
      if (c === "\n") this.line += 1;
      if (++this.recordChars > this.maxRecordChars) return (this.problem = `Line ${this.line} is longer than ${this.maxRecordChars.toLocaleString("en-AU")} characters.`);
      if (this.inQuotes) {
        if (c !== '"') {
          if (++this.cell > MAX_CELL_CHARS) return (this.problem = longCell(`line ${this.quoteLine}`));
          continue;
        }
        if (i + 1 === text.length) {
          this.quoteAtEnd = true;
          break;
        }
        if (text[i + 1] === '"') {
          i += 1;
          if (++this.cell > MAX_CELL_CHARS) return (this.problem = longCell(`line ${this.quoteLine}`));
          continue;
        }
        this.closeQuote();
      } else if (c === "," || c === "\n") {
        this.atFieldStart = true;
        this.cell = 0;
        if (c === "\n") this.recordChars = 0;
      }
      // a quote opens a field only at its start; elsewhere the parser reads it as text
      else if (c === '"' && this.atFieldStart) {
        this.inQuotes = true;
        this.quoteLine = this.line;
      } else {
        if (c !== " " && c !== "\t" && c !== "\r") this.atFieldStart = false;
        if (++this.cell > MAX_CELL_CHARS) return (this.problem = longCell(`line ${this.line}`));
      }
    }
    return null;
  }

  /** The text has ended: answers the first problem, a quote left open included. */
  end(): string | null {
    if (this.problem) return this.problem;
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      this.closeQuote();
    }
    return this.inQuotes ? (this.problem = `Line ${this.quoteLine} opens a quote that is never closed.`) : null;
  }

  private closeQuote() {
    this.inQuotes = false;
    this.atFieldStart = false;
    this.afterClose = 0;
  }
}

/** The whole text's problem, or null. */
export function csvTextProblem(text: string): string | null {
  const check = new CsvTextCheck();
  return check.feed(text) ?? check.end();
}
