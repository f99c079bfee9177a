/**
 * Notification preferences (issue 14 item 6; spec 2 "Notification config"): the one schema the
 * preferences screens and /api/{parentType}/{parentId}/notification_configs validate with, and
 * their messages. Pure, so the browser bundle may use it too (the database schema only for types).
 */
import { z } from "zod";
import type { NotificationParent, NotificationTriggerState } from "../../../db/schema/notifications";
import { idSchema } from "../../utils/ids";

/** The trigger states of spec 2 section 4 (db/schema/notifications.ts NOTIFICATION_TRIGGER_STATES), in its order. */
export const TRIGGER_STATES = ["despatched", "picked_up", "in_transit", "on_board_for_delivery", "delivered", "delivered_with_pod"] as const satisfies readonly NotificationTriggerState[];
// the list above names every state of the schema: a state added there fails to compile here until added
const _everyState: readonly (typeof TRIGGER_STATES)[number][] = [] as NotificationTriggerState[];
void _everyState;

/** How the screens name each trigger state. */
export const STATE_LABELS: Record<NotificationTriggerState, string> = {
  despatched: "Despatched",
  picked_up: "Picked up",
  in_transit: "In transit",
  on_board_for_delivery: "On board for delivery",
  delivered: "Delivered",
  delivered_with_pod: "Delivered with POD",
};

/** The {parentType} of the paths, and the level it names. */
export const PARENT_PATHS = { customers: "customer", sites: "site", accounts: "account" } as const satisfies Record<string, NotificationParent>;
export type ParentPath = keyof typeof PARENT_PATHS;

/** How the screens name each level. */
export const LEVEL_LABELS: Record<NotificationParent, string> = { customer: "customer", site: "site", account: "carrier account" };

/** The longest template stored: rich text with images by address (never inline data), far below the 4 MB body limit. */
export const TEMPLATE_MAX_CHARS = 100_000;

export const MESSAGES = {
  saved: "Notification Preferences were saved.",
  saveFailed: "Failed to save Notification Preferences.",
  chooseAccounts: "Please choose which accounts to apply these changes to",
  notCustomAccount: "Choose only accounts that have their own template for this notification",
  type: "Choose a notification type",
  unknownType: "There is no such notification type",
  state: `Trigger state must be one of ${TRIGGER_STATES.join(", ")}`,
  status: "Status must be enabled (true) or disabled (false)",
  template: "The template must be text",
  templateTooLong: `The template is too long (at most ${TEMPLATE_MAX_CHARS.toLocaleString("en-AU")} characters)`,
  accounts: "selected_account_ids must be carrier account ids",
  taken: "This level already has a template for this notification type and trigger state",
  notFound: "Notification config not found",
  removed: "This level's own template was removed: the one above it applies again.",
} as const;

/** true/false, or what a form or a caller may write for them: enabled/disabled, on/off, 1/0. */
const statusInput = (value: unknown): unknown => {
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value === 1 ? true : value === 0 ? false : value;
  if (typeof value !== "string") return value;
  const text = value.trim().toLowerCase();
  if (["true", "enabled", "enable", "on", "1", "yes"].includes(text)) return true;
  if (["false", "disabled", "disable", "off", "0", "no"].includes(text)) return false;
  return value;
};

const templateSchema = z.string({ error: MESSAGES.template }).max(TEMPLATE_MAX_CHARS, MESSAGES.templateTooLong);
const accountIds = z.array(idSchema(MESSAGES.accounts), { error: MESSAGES.accounts }).max(1000, MESSAGES.accounts);

/** A config as it is created (POST) or saved by the screens. `status` defaults to enabled. */
export const configSchema = z.object({
  notification_type: idSchema(MESSAGES.type),
  consignment_state: z.enum(TRIGGER_STATES, { error: MESSAGES.state }),
  status: z.preprocess(statusInput, z.boolean({ error: MESSAGES.status })).default(true),
  template: templateSchema.default(""),
  /**
   * At a customer or a site: the carrier accounts (with templates of their own for this type and
   * state) the change applies to as well. Absent: only this level changes.
   */
  selected_account_ids: accountIds.optional(),
});
export type ConfigInput = z.infer<typeof configSchema>;

/** A change (PUT): what it names changes, the rest stays. */
export const configChangeSchema = z.object({
  notification_type: idSchema(MESSAGES.type).optional(),
  consignment_state: z.enum(TRIGGER_STATES, { error: MESSAGES.state }).optional(),
  status: z.preprocess(statusInput, z.boolean({ error: MESSAGES.status })).optional(),
  template: templateSchema.optional(),
  selected_account_ids: accountIds.optional(),
});
export type ConfigChange = z.infer<typeof configChangeSchema>;

/** PUT /api/customers/{id}/update_account_notifications: a customer's change applied to chosen accounts' own templates. */
export const accountNotificationsSchema = z.object({
  /** the accounts the caller was shown with templates of their own (the server decides from its own data) */
  custom_accounts: z.preprocess((v) => (v == null ? [] : v), z.array(z.union([idSchema(MESSAGES.accounts), z.object({ id: idSchema(MESSAGES.accounts) }).loose()]), { error: MESSAGES.accounts }).max(1000)),
  selected_account_ids: z.preprocess((v) => (v == null ? [] : v), accountIds),
  notification_type: idSchema(MESSAGES.type),
  status: z.preprocess(statusInput, z.boolean({ error: MESSAGES.status })).default(true),
  consignment_state: z.enum(TRIGGER_STATES, { error: MESSAGES.state }),
  template: templateSchema.default(""),
});

/** A config as the API and the screens show it (spec 2: id, notification_type, consignment_state, status, template, parent_type, parent_id, accounts_with_custom_templates). */
export interface ConfigJson {
  id: number;
  customer_id: number;
  parent_type: NotificationParent;
  parent_id: number;
  notification_type: number;
  notification_type_name: string;
  consignment_state: NotificationTriggerState;
  /** true: sent; false: turned off here (and so not sent, whatever the levels above say) */
  status: boolean;
  template: string;
  /** the carrier accounts under this customer or site with a template of their own for the same type and state */
  accounts_with_custom_templates: number[];
  updated_at: string;
}

/** The preferences screen of a level: a customer's, one of its sites', or one of a site's carrier accounts'. */
export function preferencesPath(customerId: number, siteId?: number | null, accountId?: number | null): string {
  const site = siteId ? `/sites/${siteId}` : "";
  const account = siteId && accountId ? `/accounts/${accountId}` : "";
  return `/customers/${customerId}${site}${account}/notification_configs`;
}
