import postgres from "postgres";
import { plusDays } from "../../app/modules/calendar/dates";
import { todayIn } from "../../app/modules/calendar/site-time";

/**
 * Payable invoices for the finance specs, written straight into the server's database (the
 * importer is another part's): an Australia Post invoice dated two days ago with two lines and costs.
 * Answers the invoice id and a function that removes it again.
 */
export async function insertPayableInvoice(number: string): Promise<{ id: number; remove: () => Promise<void> }> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is needed to write invoices for the finance specs");
  const sql = postgres(url, { max: 1 });
  // two days back: inside every site's past fortnight, whatever its time zone (the admin's is Los Angeles)
  const today = plusDays(todayIn("Australia/Melbourne"), -2);
  const [carrier] = await sql<{ id: number }[]>`select id from carriers where code = 'auspost'`;
  const [inv] = await sql<{ id: number }[]>`insert into invoices (accounting_type, invoice_number, invoice_date, total, carrier_id) values ('payable', ${number}, ${today}, 33, ${carrier!.id}) returning id`;
  for (const [n, cn] of [[1, `${number}-A`], [2, `${number}-B`]] as const) {
    const [line] = await sql<{ id: number }[]>`insert into invoice_details (invoice_id, line_number, carrier_id, consignment_number, receiver_name, total_cost) values (${inv!.id}, ${n}, ${carrier!.id}, ${cn}, 'Brisbane Hardware', 16.5) returning id`;
    await sql`insert into invoice_costs (invoice_detail_id, category, description, amount) values (${line!.id}, 'freight_charge', 'Freight', 15), (${line!.id}, 'fuel_charge', 'Fuel', 1.5)`;
  }
  await sql.end();
  return {
    id: inv!.id,
    async remove() {
      const db = postgres(url, { max: 1 });
      await db`delete from invoices where id = ${inv!.id}`;
      await db.end();
    },
  };
}
