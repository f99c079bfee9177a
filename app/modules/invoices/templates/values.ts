/**
 * Reading the text of a carrier's cell as the value a field needs (docs/decisions/019
 * "Templates"): amounts with currency signs, thousands separators and accounting negatives,
 * dates in the three layouts carriers send, ISO week numbers, yes/no flags. Each answers null
 * for text it cannot read, and the caller reports the row.
 */

/** "$1,234.50", "AUD 12.00", "(3.20)", "-3.2", "1 234,00"? no: a comma is a thousands separator only. */
export function parseAmount(text: string): number | null {
  let s = text.trim();
  if (s === "") return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  s = s.replace(/^(AUD|NZD|USD|A\$|NZ\$|US\$)\s*/i, "").replace(/[$€£¥\s]/g, "");
  if (s.endsWith("-")) {
    negative = !negative;
    s = s.slice(0, -1);
  }
  if (s.startsWith("-")) {
    negative = !negative;
    s = s.slice(1);
  }
  s = s.replace(/^\$/, "");
  if (!/^(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.test(s) || s === "" || s === ".") return null;
  const n = Number(s.replace(/,/g, ""));
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

const iso = (y: number, m: number, d: number): string | null => {
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
};

/** Excel's day 1 is 1900-01-01, and it counts a 29 February 1900 that never was. */
export function excelSerialToIso(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2958465) return null;
  const ms = Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * A date as YYYY-MM-DD from DD/MM/YYYY (or D-M-YYYY, DD.MM.YYYY), YYYY-MM-DD (with a time
 * after it), D-Mon-YYYY (or "5 Mar 2026"), or an Excel serial day number (40000 to 80000, so an
 * amount or a reference never passes for a date). Two-digit years are 20YY.
 */
export function parseDate(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(s);
  if (m) return iso(year(m[3]!), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})[\s-]([A-Za-z]{3,9})[\s-](\d{2}|\d{4})$/.exec(s);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.slice(0, 3).toLowerCase());
    return month < 0 ? null : iso(year(m[3]!), month + 1, Number(m[1]));
  }
  if (/^\d{5}(\.\d+)?$/.test(s)) {
    const serial = Number(s);
    if (serial >= 40000 && serial <= 80000) return excelSerialToIso(serial);
  }
  return null;
}

const year = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/**
 * The Monday of an ISO week as YYYY-MM-DD, from "2026-W07", "2026W07", "202607", "07/2026" or
 * "2026/07" (week 1 holds the year's first Thursday). Week 53 only in years that have one.
 */
export function weekToDate(text: string): string | null {
  const s = text.trim().toUpperCase();
  let y: number;
  let w: number;
  let m = /^(\d{4})[-/ ]?W?(\d{1,2})$/.exec(s);
  if (m && (s.includes("W") || s.includes("-") || s.includes("/") || s.length === 6)) {
    y = Number(m[1]);
    w = Number(m[2]);
  } else if ((m = /^W?(\d{1,2})[/-](\d{4})$/.exec(s))) {
    y = Number(m[2]);
    w = Number(m[1]);
  } else return null;
  if (w < 1 || w > 53) return null;
  const jan4 = new Date(Date.UTC(y, 0, 4));
  const week1Monday = Date.UTC(y, 0, 4) - ((jan4.getUTCDay() + 6) % 7) * 86_400_000;
  const monday = new Date(week1Monday + (w - 1) * 7 * 86_400_000);
  // week 53 of a year with 52 weeks falls in the next year's week 1
  if (w === 53 && weekToDate(`${y + 1}-W01`) === monday.toISOString().slice(0, 10)) return null;
  return monday.toISOString().slice(0, 10);
}

/** Y, yes, true, 1, DG -> true; N, no, false, 0, blank -> false; anything else null. */
export function parseFlag(text: string): boolean | null {
  const s = text.trim().toLowerCase();
  if (["y", "yes", "true", "1", "dg", "x"].includes(s)) return true;
  if (["", "n", "no", "false", "0"].includes(s)) return false;
  return null;
}

/** A count: "3", "3.0", "1,200". */
export function parseCount(text: string): number | null {
  const n = parseAmount(text);
  return n === null || !Number.isInteger(n) || n < 0 ? null : n;
}
