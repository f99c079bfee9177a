/**
 * A free-form JSON value (a consignment's `options`, a rating item's `item_options`) with a bounded
 * size and nesting: stored and sent on as it came, so a megabyte or a thousand levels would cost
 * every later read of the record. The depth is measured without recursion, so a value nested
 * 100,000 deep is refused rather than overflowing the stack.
 */
import { z } from "zod";

export const JSON_MAX_BYTES = 10_240;
export const JSON_MAX_DEPTH = 8;

/** The nesting depth of a parsed JSON value (a scalar is 0), giving up past `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    const inner = depth + 1;
    if (inner > deepest) deepest = inner;
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, inner]);
  }
  return deepest;
}

/** `schema`, refused when deeper than JSON_MAX_DEPTH or longer than `maxBytes` (JSON_MAX_BYTES) as JSON. */
export const boundedJson = <S extends z.ZodType>(label: string, schema: S, maxBytes = JSON_MAX_BYTES) =>
  z
    .unknown()
    .superRefine((v, ctx) => {
      if (jsonDepth(v, JSON_MAX_DEPTH) > JSON_MAX_DEPTH) ctx.addIssue({ code: "custom", message: `${label} must be nested at most ${JSON_MAX_DEPTH} levels deep`, abort: true });
      else if (new TextEncoder().encode(JSON.stringify(v) ?? "").length > maxBytes) ctx.addIssue({ code: "custom", message: `${label} must be at most ${maxBytes / 1024} KB as JSON`, abort: true });
    })
    .pipe(schema);
