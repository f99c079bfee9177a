/**
 * A reference pattern: `*` any run of characters, `?` exactly one, anything else itself, case
 * insensitive and anchored at both ends. Matched by the greedy two-pointer walk (back to the last
 * `*` on a mismatch): at most pattern × text steps, so no pattern can take exponential time as a
 * backtracking regular expression can.
 */
export function globMatches(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === "?" || p[pi] === t[ti])) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      resume = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
