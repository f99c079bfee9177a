/**
 * Number formats (DESIGN "Numbers"): consignment and manifest numbers are the account's prefix
 * and the number padded to its digits; an SSCC-18 is the account's GS1 company prefix (with its
 * extension digit), the serial reference padded, and the GS1 check digit. Pure, for labels too.
 */

/** prefix + n padded with zeros to `digits` (never cut: a number longer than digits is refused). */
export function formatNumber(prefix: string, digits: number, n: number): string {
  const body = String(n);
  if (body.length > digits) throw new RangeError(`${n} does not fit in ${digits} digits`);
  return `${prefix}${body.padStart(digits, "0")}`;
}

/** The GS1 mod-10 check digit of a run of digits: weights 3 and 1 alternating from the right. */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError("GS1 check digits are of digits only");
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10;
}

/** SSCC-18: extension digit and company prefix (`prefix`), serial reference to 17 digits, check digit. */
export function formatSscc(prefix: string, serial: number): string {
  const digits = 17 - prefix.length;
  if (!/^\d+$/.test(prefix) || digits < 1) throw new RangeError("The SSCC prefix must be 1 to 16 digits");
  const body = `${prefix}${String(serial).padStart(digits, "0")}`;
  if (body.length !== 17) throw new RangeError(`serial ${serial} does not fit the SSCC`);
  return `${body}${gs1CheckDigit(body)}`;
}

/** True when an 18-digit SSCC carries the right check digit. */
export const isValidSscc = (sscc: string) => /^\d{18}$/.test(sscc) && gs1CheckDigit(sscc.slice(0, 17)) === Number(sscc[17]);

/** Labels of an item line: its quantity times the item type's label count (one when unset). */
export const labelCount = (quantity: number, typeLabels: number | null | undefined) => Math.max(0, quantity) * (typeLabels && typeLabels > 0 ? typeLabels : 1);
