/**
 * What of a price a viewer may see (docs/decisions/009-who-sees-buy-costs.md). Rates are worked out
 * and stored whole (buy, lane, markups, sell); every answer that carries a rate passes through
 * `ratesForViewer` on its way out, so a customer's despatcher sees the sell side only.
 */
import { canSeeBuyCosts, isAdmin, type AccessSubject } from "../auth/roles";

/** The parts of a rating detail that tell what the provider pays or adds. */
export const BUY_SIDE_KEYS = ["buy", "total_buy", "markup", "surcharge_markup", "lane"] as const;

type Detail = Record<string, unknown>;

function sellSide(detail: Detail): Detail {
  const copy: Detail = { ...detail };
  for (const key of BUY_SIDE_KEYS) delete copy[key];
  return copy;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/**
 * `value` (a rate response, a consignment, a list of them, a screen's data) as `viewer` may see
 * it: every `rating_detail` in it loses its buy-side keys unless the viewer may see buy costs, and
 * a rate of a hidden-rate account (`is_na`, or a stored detail marked `hidden`) loses its detail
 * for anyone but staff. Returns a copy; the input is not changed.
 */
export function ratesForViewer<T>(viewer: AccessSubject, value: T): T {
  // staff see everything, hidden rates included
  if (isAdmin(viewer)) return value;
  const seesBuy = canSeeBuyCosts(viewer);
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isRecord(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(v)) {
      if (key === "rating_detail" && isRecord(inner)) {
        const hidden = v.is_na === true || inner.hidden === true;
        out[key] = hidden ? null : seesBuy ? inner : sellSide(inner);
      } else {
        out[key] = walk(inner);
      }
    }
    return out;
  };
  return walk(value) as T;
}
