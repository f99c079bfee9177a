import { eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { users, type UserOptions } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { isAdmin } from "../auth/roles";
import { canChooseView, FINANCE_ACCESS_MESSAGES } from "../invoices/access";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";

export const DATE_FILTERS = ["today", "last_3_days", "last_7_days", "last_14_days", "last_30_days", "this_week", "next_7_days"] as const;
export const PAGE_SIZES = [20, 50, 100, 150] as const;

const pageSize = z.coerce
  .number()
  .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), `Must be one of ${PAGE_SIZES.join(", ")}`);

/** The user options a caller may set (spec 1 and 3 section 7); unknown keys are refused. */
export const userOptionsSchema = z
  .object({
    view: z.enum(["DESPATCHER", "FINANCE"]),
    consignment_date_filter: z.enum(DATE_FILTERS),
    consignment_site_filter: z.string().regex(/^(all|\d+)$/, "Must be all or a site id"),
    print_button: z.enum(["save_print", "save_print_new"]),
    quote_button: z.enum(["new_quote", "return_quote", "thirdparty_quote", "quick_quote"]),
    invoice_details_per_page: pageSize,
    reconciliation_per_page: pageSize,
    windows_username: z.string().trim().min(1).max(100),
  })
  .partial()
  .strict();

/** Body of PUT /api/update_user_options/{userId}: `{ options: {...} }`. */
const bodySchema = z.object({ options: userOptionsSchema }).strict();

/**
 * Merges options into a user's saved options. A user sets their own; staff may set those of a
 * user of the customer they work in. The FINANCE view is refused (403) to a user without finance.
 */
export async function updateUserOptions(db: DbOrTx, actor: CurrentUser, userId: number, raw: unknown): Promise<UserOptions> {
  const { options } = parseOrThrow(bodySchema, raw);
  const [target] = await db
    .select({ id: users.id, customerId: users.customerId, options: users.options, role: users.role, canReconcile: users.canReconcile })
    .from(users)
    .where(eq(users.id, userId));
  if (!target) throw notFound("User");
  const allowed = target.id === actor.id || (isAdmin(actor) && target.customerId === actor.customer.id);
  if (!allowed) {
    // another customer's user is invisible; a user of the same customer is forbidden
    if (target.customerId !== actor.customer.id) throw notFound("User");
    throw new AppError("forbidden", forbiddenMessage(actor));
  }
  // a view is a preference, never a permission: FINANCE only for a user who has finance (decision 022)
  if (options.view && !canChooseView(target, options.view)) {
    throw new AppError("forbidden", FINANCE_ACCESS_MESSAGES.viewRefused, { "options.view": [FINANCE_ACCESS_MESSAGES.viewRefused] });
  }
  const merged = { ...(target.options ?? {}), ...options } as UserOptions;
  await db.update(users).set({ options: merged, updatedAt: new Date() }).where(eq(users.id, userId));
  return merged;
}
