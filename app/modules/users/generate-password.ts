/**
 * A generated password (GET /api/generate_password, the user screen's modal) that satisfies the
 * rule of spec 2 section 5 by construction: 16 characters with at least 2 lower case, 2 upper
 * case and 2 digits, from the Web Crypto random source (in Node and in the browser alike).
 * Look-alike characters (0/O, 1/l/I) are left out, since a person may have to type it.
 */
const LOWER = "abcdefghijkmnopqrstuvwxyz";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DIGITS = "23456789";
const ALL = LOWER + UPPER + DIGITS;
export const GENERATED_LENGTH = 16;

/** A uniform index below `n` (rejection sampling: no modulo bias). */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const buf = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buf);
    if (buf[0]! < limit) return buf[0]! % n;
  }
}

const pick = (set: string) => set[randomBelow(set.length)]!;

export function generatePassword(length = GENERATED_LENGTH): string {
  const chars = [pick(LOWER), pick(LOWER), pick(UPPER), pick(UPPER), pick(DIGITS), pick(DIGITS)];
  while (chars.length < Math.max(length, 10)) chars.push(pick(ALL));
  // Fisher-Yates, so the required characters are not always first
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join("");
}
