/**
 * Customers list benchmark (issue 16): 5,000 customers in the database (live, test and disabled),
 * the /index_customers page and GET /api/customers measured over HTTP as a signed-in admin, beside
 * their floors (an empty request, and a plain select of every customer in process). Target: the
 * customers list p95 under 50 ms. `customersSection` answers the lines of docs/performance.md;
 * bench/run.ts may call it with the bench (it needs only the server and the demo data). Alone:
 * `npx tsx bench/customers.ts` (after `npx remix build`), against DATABASE_URL when set, else PGlite.
 */
import { eq } from "drizzle-orm";
import { customers, users } from "../db/schema";
import { seedDemo } from "../db/seed/demo";
import { loadCurrentUser } from "../app/modules/auth/current-user.server";
import { customerGroups, listCustomersForAdmin } from "../app/modules/customers/list.server";
import { Client, startTestServer } from "../tests/support/server";
import { inProcess, loadFrom, tableRows, TABLE_HEAD } from "./measure";
import type { Bench } from "./setup";

const TOTAL = Number(process.env.BENCH_CUSTOMERS ?? 5000);

/** 5,000 customers in a few multi-row inserts: 7 in 10 live, 2 test, 1 disabled. */
export async function fillCustomers(db: Bench["server"]["db"], total = TOTAL): Promise<number> {
  const existing = (await db.select({ id: customers.id }).from(customers)).length;
  const rows = Array.from({ length: Math.max(total - existing, 0) }, (_, i) => ({
    code: `BENCHC${i + 1}`,
    name: `Bench Customer ${String(i + 1).padStart(5, "0")} ${["Freight", "Logistics", "Supplies", "Traders"][i % 4]}`,
    testAccount: i % 10 === 7 || i % 10 === 8,
    disabled: i % 10 === 9,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insert(customers).values(rows.slice(i, i + 1000));
  return existing + rows.length;
}

export async function customersSection(bench: Pick<Bench, "server" | "demo">): Promise<string[]> {
  const { server } = bench;
  const count = await fillCustomers(server.db);
  const client = new Client(server.url);
  await client.signIn("admin@example.com");
  const [adminRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
  const admin = (await loadCurrentUser(server.db, adminRow!.id))!;
  const http = { cookie: client.cookie, "accept-encoding": "identity" };
  const json = { ...http, accept: "application/json" };
  // warm up: the route modules loaded, the statements planned
  await loadFrom({ url: `${server.url}/index_customers`, headers: http, total: 30, concurrency: 1 });
  const page = await loadFrom({ url: `${server.url}/index_customers`, headers: http, total: 300, concurrency: 1 });
  const filtered = await loadFrom({ urls: ["a", "bench customer 01", "freight", "zz"].map((q) => `${server.url}/index_customers?q=${encodeURIComponent(q)}`), headers: http, total: 300, concurrency: 1 });
  const api = await loadFrom({ url: `${server.url}/api/customers`, headers: json, total: 200, concurrency: 1 });
  const floor = await loadFrom({ url: `${server.url}/api/users/current`, headers: json, total: 300, concurrency: 1 });
  // the shell alone: a staff page that reads next to nothing (the mailbox, empty here)
  const shell = await loadFrom({ url: `${server.url}/mailbox`, headers: http, total: 300, concurrency: 1 });
  const groups = await inProcess(200, () => customerGroups(server.db, admin, {}));
  const list = await inProcess(100, () => listCustomersForAdmin(server.db, admin));
  const plain = await inProcess(100, () => server.db.select({ id: customers.id, code: customers.code, name: customers.name }).from(customers));
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  return [
    "## Customers list",
    "",
    `Target (issue 16): with ${count.toLocaleString("en")} customers, the customers list p95 under 50 ms. Called as the demo admin, 1 caller from a separate process.`,
    "",
    ...TABLE_HEAD,
    ...tableRows([
      ["GET /index_customers (the page: three groups, 50 a group shown, with totals)", page],
      ["GET /index_customers?q=... (filtered by name or code)", filtered],
      [`GET /api/customers (every customer, ${count.toLocaleString("en")} rows of JSON)`, api],
      ["floor: GET /api/users/current", floor],
      ["floor: GET /mailbox (a staff page that reads next to nothing: the shell's cost)", shell],
      ["customerGroups in process (the page's one query)", groups],
      ["listCustomersForAdmin in process", list],
      ["floor: a plain select of every customer's id, code, name in process", plain],
    ]),
    "",
    `- the customers list page p95 under 50 ms: ${page.p95.toFixed(1)} ms (floors: ${floor.p95.toFixed(1)} ms for an empty request, ${shell.p95.toFixed(1)} ms for an empty staff page), ${met(page.p95 < 50)}`,
    `- GET /api/customers p95: ${api.p95.toFixed(1)} ms, ${met(api.p95 < 50)}`,
    "",
    "The page numbers the matching customers within their group in one query (row_number over a window) and",
    "renders only the wanted page of each group, so 5,000 customers cost one scan and a sort, not 5,000 rows of HTML.",
    "",
  ];
}

// alone: its own server and the demo data
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startTestServer();
  try {
    const demo = await seedDemo(server.db);
    console.log((await customersSection({ server, demo })).join("\n"));
  } finally {
    await server.close();
  }
}
