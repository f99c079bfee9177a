/**
 * Which notifications a consignment's state sends (issue 14 item 7), pure: the configs that apply
 * (most specific first: its carrier account's, then its site's, then its customer's, per type),
 * what each item is, and the key that makes a notification at most once.
 */
import { NOTIFICATION_TRIGGER_STATES, type NotificationParent, type NotificationTriggerState } from "../../../db/schema/notifications";

export interface ConfigRow {
  parentType: NotificationParent;
  parentId: number;
  notificationTypeId: number;
  consignmentState: string;
}

/** Where a consignment is sent from: its customer, its site and its carrier account. */
export interface Placement {
  customerId: number;
  siteId: number | null;
  carrierAccountId: number | null;
}

const RANK: Record<NotificationParent, number> = { account: 0, site: 1, customer: 2 };

const appliesTo = (c: ConfigRow, at: Placement) =>
  (c.parentType === "account" && c.parentId === at.carrierAccountId) || (c.parentType === "site" && c.parentId === at.siteId) || (c.parentType === "customer" && c.parentId === at.customerId);

/**
 * Of configs that may apply, the most specific per notification type and state: the account's,
 * else the site's, else the customer's. A disabled one is kept and wins: an account or site that
 * turned a notification off is not sent its customer's. (The screens show and the sending uses
 * this one rule.)
 */
export function mostSpecific<C extends ConfigRow>(configs: readonly C[], at: Placement): C[] {
  const best = new Map<string, C>();
  for (const c of configs) {
    if (!appliesTo(c, at)) continue;
    const key = `${c.notificationTypeId}:${c.consignmentState}`;
    const kept = best.get(key);
    if (!kept || RANK[c.parentType] < RANK[kept.parentType]) best.set(key, c);
  }
  return [...best.values()];
}

/** The configs that send for this consignment entering `state`: the most specific of each type, if it is enabled. */
export function applicableConfigs<C extends ConfigRow & { enabled: boolean }>(configs: readonly C[], at: Placement, state: string): C[] {
  return mostSpecific(
    configs.filter((c) => c.consignmentState === state),
    at,
  ).filter((c) => c.enabled);
}

export const isTriggerState = (state: string): state is NotificationTriggerState => (NOTIFICATION_TRIGGER_STATES as readonly string[]).includes(state);

export interface Item {
  consignmentId: number;
  state: NotificationTriggerState;
  /** set when the customer sends every tracking update: one notification per event */
  eventId: number | null;
}

/**
 * What to send for: a consignment entering a trigger state sends once (per config); a customer
 * with send_all_tracking_updates is sent every tracking event instead (each depot's in transit),
 * once per event. Despatch is no tracking event: it always counts as entering despatched.
 */
export function itemsToSend(
  changes: readonly { consignmentId: number; state: string }[],
  events: readonly { id: number; consignmentId: number; event: string }[],
  sendsEveryUpdate: (consignmentId: number) => boolean,
): Item[] {
  const items: Item[] = [];
  for (const c of changes) {
    if (!isTriggerState(c.state)) continue;
    if (c.state !== "despatched" && sendsEveryUpdate(c.consignmentId)) continue;
    items.push({ consignmentId: c.consignmentId, state: c.state, eventId: null });
  }
  for (const e of events) if (isTriggerState(e.event) && sendsEveryUpdate(e.consignmentId)) items.push({ consignmentId: e.consignmentId, state: e.event, eventId: e.id });
  return items;
}

/** At most once per consignment, config and state (and event, when every update is sent). */
export const dedupeKey = (item: Item, configId: number) => `${item.consignmentId}:${configId}:${item.state}${item.eventId ? `:${item.eventId}` : ""}`;

/** An SMS longer than its type allows is cut at a word, with an ellipsis, rather than not sent. */
export function fitLength(text: string, max: number | null): string {
  if (!max || text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
