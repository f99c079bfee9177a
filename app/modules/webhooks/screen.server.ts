/**
 * The /webhooks screen's reads and form posts (docs/decisions/039): the endpoints of a customer
 * (staff choose one, a customer's admin has their own), one endpoint with its delivery log, and
 * the form fields turned into the calls /api makes.
 */
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { listCustomers } from "../tenancy/customers.server";
import { listDeliveries, waitingCounts } from "./deliveries.server";
import { getEndpoint, listEndpoints } from "./endpoints.server";

export async function webhooksScreen(db: DbOrTx, user: CurrentUser, url: URL) {
  const customerId = url.searchParams.get("customer_id");
  const list = await listEndpoints(db, user, customerId ? { customer_id: customerId } : {});
  const waiting = await waitingCounts(
    db,
    list.webhooks.map((w) => w.id),
  );
  return {
    ...list,
    webhooks: list.webhooks.map((w) => ({ ...w, waiting: waiting.get(w.id) ?? 0 })),
    customers: isAdmin(user) ? (await listCustomers(db, user)).map((c) => ({ id: c.id, name: c.name })) : null,
  };
}

export async function endpointScreen(db: DbOrTx, user: CurrentUser, id: number, url: URL) {
  const webhook = await getEndpoint(db, user, id);
  const log = await listDeliveries(db, user, id, { page: url.searchParams.get("page") ?? undefined });
  return { webhook, ...log };
}

/** The endpoint form's fields as the /api body: checkboxes of events, an active checkbox. */
export const endpointForm = (form: FormData) => ({
  url: String(form.get("url") ?? ""),
  events: form.getAll("events").map(String),
  active: form.get("active") === "on",
});
