import pg from "pg";
import { todayIn } from "../../app/modules/calendar/site-time";

/**
 * Payable invoices for the finance specs, written straight into the server's database (the
 * importer is another part's): an Australia Post invoice dated today with two lines and costs.
 * Answers the invoice id and a function that removes it again.
 */
export async function insertPayableInvoice(number: string): Promise<{ id: number; remove: () => Promise<void> }> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is needed to write invoices for the finance specs");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const today = todayIn("Australia/Melbourne");
  const carrier = (await client.query<{ id: number }>("select id from carriers where code = 'auspost'")).rows[0]!.id;
  const inv = (await client.query<{ id: number }>("insert into invoices (accounting_type, invoice_number, invoice_date, total, carrier_id) values ('payable', $1, $2, 33, $3) returning id", [number, today, carrier])).rows[0]!.id;
  for (const [n, cn] of [[1, `${number}-A`], [2, `${number}-B`]] as const) {
    const line = (await client.query<{ id: number }>("insert into invoice_details (invoice_id, line_number, carrier_id, consignment_number, receiver_name, total_cost) values ($1, $2, $3, $4, 'Brisbane Hardware', 16.5) returning id", [inv, n, carrier, cn])).rows[0]!.id;
    await client.query("insert into invoice_costs (invoice_detail_id, category, description, amount) values ($1, 'freight_charge', 'Freight', 15), ($1, 'fuel_charge', 'Fuel', 1.5)", [line]);
  }
  await client.end();
  return {
    id: inv,
    async remove() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query("delete from invoices where id = $1", [inv]);
      await c.end();
    },
  };
}
