/**
 * Money as whole cents. Reconciliation and invoicing add, compare and split amounts; doing that in
 * dollars as floats drifts (0.1 + 0.2), so amounts become integers of cents once, on the way in.
 */

const DECIMAL = /^\s*([+-])?(\d*)(?:\.(\d*))?\s*$/;

/**
 * Cents of an amount in dollars: a number (rating_detail) or a numeric string (the database's
 * numeric columns), rounded half away from zero past the second decimal. Blank or unreadable -> 0.
 */
export function toCents(value: number | string | null | undefined): number {
  if (value == null) return 0;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return 0;
    // the epsilon lifts 1.005 (stored as 1.00499999...) to the half it was written as
    return Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-6);
  }
  const m = DECIMAL.exec(value);
  if (!m || (!m[2] && !m[3])) return 0;
  const whole = Number(m[2] || "0");
  const fraction = (m[3] ?? "").padEnd(3, "0");
  const cents = whole * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return m[1] === "-" ? -cents : cents;
}

/** Dollars for display and storage (2 decimals as a string, as numeric columns take them). */
export function centsToAmount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** a / b rounded half away from zero, in integers (b > 0): no float in between. */
export function divideRounded(a: number, b: number): number {
  const q = Math.floor(Math.abs(a) / b);
  const r = Math.abs(a) - q * b;
  const rounded = r * 2 >= b ? q + 1 : q;
  // never -0: a credit that rounds to nothing is 0, and Object.is(-0, 0) is false
  return a < 0 && rounded !== 0 ? -rounded : rounded;
}
