/**
 * What of a price a viewer may see (docs/decisions/009-who-sees-buy-costs.md). Rates are worked out
 * and stored whole (buy, lane, markups, sell); every answer that carries a rate passes through
 * `ratesForViewer` on its way out, so a customer's despatcher sees the sell side only.
 */
import { canSeeBuyCosts, isAdmin, type AccessSubject } from "../auth/roles";

/** The parts of a rating detail that tell what the provider pays or adds. */
export const BUY_SIDE_KEYS = ["buy", "total_buy", "markup", "surcharge_markup", "lane"] as const;

type Detail = Record<string, unknown>;

const BUY_SIDE = new Set<string>(BUY_SIDE_KEYS);

/** A copy without the buy side, built key by key: deleting keys from a copy leaves a slow dictionary object, slower to serialise too. */
function sellSide(detail: Detail): Detail {
  const copy: Detail = {};
  for (const key of Object.keys(detail)) if (!BUY_SIDE.has(key)) copy[key] = detail[key];
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * `value` (a rate response, a consignment, a list of them, a screen's data) as `viewer` may see
 * it: every `rating_detail` in it loses its buy-side keys unless the viewer may see buy costs, and
 * a rate of a hidden-rate account (`is_na`, or a stored detail marked `hidden`) loses its detail
 * for anyone but staff. The input is never changed: what holds a changed detail is copied, the
 * rest is shared with the input rather than copied (every answer with a rate passes through here).
 */
export function ratesForViewer<T>(viewer: AccessSubject, value: T): T {
  // staff see everything, hidden rates included
  if (isAdmin(viewer)) return value;
  const seesBuy = canSeeBuyCosts(viewer);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const seen = walk(v[i]);
        if (seen !== v[i]) (out ??= v.slice())[i] = seen;
      }
      return out ?? v;
    }
    if (!isRecord(v)) return v;
    let out: Record<string, unknown> | undefined;
    for (const key of Object.keys(v)) {
      const inner = v[key];
      let seen: unknown;
      if (key === "rating_detail" && isRecord(inner)) {
        const hidden = v.is_na === true || inner.hidden === true;
        seen = hidden ? null : seesBuy ? inner : sellSide(inner);
      } else {
        seen = walk(inner);
      }
      if (seen !== inner) (out ??= { ...v })[key] = seen;
    }
    return out ?? v;
  };
  return walk(value) as T;
}
