/**
 * The consignment list tests' world: the demo with its rates, three despatchers (one of another
 * customer), and a dozen consignments around a future Wednesday W in every state the list shows,
 * created through POST /api/consignments and /api/returns so the list columns are the ones a save writes.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { consignments, itemTypes, services, sites, userSites, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { loadCurrentUser, type CurrentUser } from "../../app/modules/auth/current-user.server";
import { listGroupRows, listGroups, type ListScope } from "../../app/modules/consignments/list.server";
import type { GroupKey } from "../../app/modules/consignments/list";
import { todayIn } from "../../app/modules/calendar/site-time";
import { receiver as despatchReceiver, senders, type Json } from "./despatch";
import { Client, startTestServer, type TestServer } from "./server";

export type { Json } from "./despatch";

export const iso = (d: Date) => d.toISOString().slice(0, 10);
export const plusDays = (date: string, n: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000));
// the despatcher works at Melbourne: the list's today is Melbourne's
export const today = todayIn("Australia/Melbourne");
/** A "today" three weeks or more ahead (a Wednesday): the date filters around it hold only future dates, which a save allows. */
export const W = (() => {
  let d = plusDays(today, 21);
  while (new Date(`${d}T00:00:00Z`).getUTCDay() !== 3) d = plusDays(d, 1);
  return d;
})();
const { email: _email, ...receiver } = despatchReceiver;
export { receiver };
export const sender = senders.MEL;
export const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

export interface ListWorld {
  server: TestServer;
  despatcher: Client;
  superDespatcher: Client;
  tester: Client;
  cartonTypeId: number;
  /** the consignments around W, by name */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- filled in at the start, read by name
  c: Record<string, any>;
  despatcherUser: CurrentUser;
  superUser: CurrentUser;
  consignment(over?: Record<string, unknown>): Record<string, unknown>;
  create(client: Client, body: Record<string, unknown>, path?: string): Promise<Json>;
  /** every row id of a filter and date (all groups, all pages) */
  idsIn(user: CurrentUser, scope: ListScope): Promise<number[]>;
  serviceIdOf(code: string): Promise<number>;
  groupKeyOf(x: Json): Promise<GroupKey>;
}

export async function startListWorld(): Promise<ListWorld> {
  const server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  const despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  const superDespatcher = new Client(server.url);
  await superDespatcher.signIn("superdespatcher@example.com");
  // the other customer's despatcher works at its Test Site
  const [tst] = await server.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "TST"));
  const [testerRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "tester@example.com"));
  await server.db.insert(userSites).values({ userId: testerRow!.id, siteId: tst!.id });
  const tester = new Client(server.url);
  await tester.signIn("tester@example.com");
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  const cartonTypeId = carton!.id;

  const consignment = (over: Record<string, unknown> = {}) => ({
    site_code: "MEL",
    reference: "PO-1001",
    despatch_date: W,
    sender_address: sender,
    receiver_address: receiver,
    items: [{ quantity: 2, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10", reference: "CTN-A" }],
    ...over,
  });
  const create = async (client: Client, body: Record<string, unknown>, path = "/api/consignments"): Promise<Json> => {
    const res = await client.json<Json>(path, { json: body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const userOf = async (email: string): Promise<CurrentUser> => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return (await loadCurrentUser(server.db, row!.id))!;
  };
  const idsIn = async (user: CurrentUser, scope: ListScope): Promise<number[]> => {
    const groups = await listGroups(server.db, user, scope);
    const ids: number[] = [];
    for (const g of groups) {
      let after: string | null = null;
      do {
        const page: { rows: { id: number }[]; next: string | null } = await listGroupRows(server.db, user, scope, g.key, { sort: "despatch_date", dir: "asc", after });
        ids.push(...page.rows.map((r) => r.id));
        after = page.next;
      } while (after);
    }
    return ids.sort((a, b) => a - b);
  };
  const serviceIdOf = async (code: string) => {
    const [svc] = await server.db.select({ id: services.id }).from(services).where(eq(services.code, code));
    return svc!.id;
  };
  const groupKeyOf = async (x: Json): Promise<GroupKey> => {
    if (x.return_type) return "returns";
    return x.service_code ? (`s${await serviceIdOf(x.service_code)}` as GroupKey) : "none";
  };

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by name
  const c: Record<string, any> = {};
  c.ready = await create(despatcher, consignment({ reference: "PO-2024-000123-X", receiver_address: { ...receiver, name: "Perth Outdoor Supplies Pty" } }));
  c.open = await create(despatcher, consignment({ reference: "OPEN-1", receiver_address: null }));
  c.sydney = await create(despatcher, consignment({ site_code: "SYD", reference: "SYD-1" }));
  c.twoDaysAgo = await create(despatcher, consignment({ despatch_date: plusDays(W, -2), reference: "MINUS-2" }));
  c.tenDaysAgo = await create(despatcher, consignment({ despatch_date: plusDays(W, -10), reference: "MINUS-10" }));
  c.saturday = await create(despatcher, consignment({ despatch_date: plusDays(W, 3), reference: "PLUS-3" }));
  const info = { ready_at: `${W} 09:00`, closing_at: `${W} 17:00`, contact_name: "Pat Picker", phone_number: "07 3000 1111" };
  c.return = await create(despatcher, consignment({ sender_address: { ...receiver, name: "Returning Customer" }, receiver_address: sender, return_info: info, reference: "RET-1" }), "/api/returns");
  c.despatched = await create(despatcher, consignment({ reference: "GONE-1" }));
  c.failed = await create(despatcher, consignment({ reference: "FAIL-1" }));
  c.quote = await create(despatcher, { ...consignment({ reference: "QUOTE-1" }), is_quote: true });
  c.lax = await create(superDespatcher, consignment({ site_code: "LAX", reference: "LAX-1", receiver_address: null }));
  c.other = await create(tester, { site_code: "TST", reference: "OTHER-1", despatch_date: W, items: [{ quantity: 1, length: 10, width: 10, height: 10, weight_in_uom: "1" }] });

  // labels of the Sydney one are printed (Ready to despatch); two further on in their life
  expect((await despatcher.request(`/print/${c.sydney.id}/labels?format=html`, { method: "POST" })).status).toBe(200);
  // the despatch back end moves states; here the rows are moved there directly
  await server.db.update(consignments).set({ state: "despatched", consignmentNumber: "APMEL0000001" }).where(eq(consignments.id, c.despatched.id));
  await server.db.update(consignments).set({ state: "despatch_failure" }).where(eq(consignments.id, c.failed.id));

  const despatcherUser = await userOf("despatcher@example.com");
  const superUser = await userOf("superdespatcher@example.com");
  return { server, despatcher, superDespatcher, tester, cartonTypeId, c, despatcherUser, superUser, consignment, create, idsIn, serviceIdOf, groupKeyOf };
}
