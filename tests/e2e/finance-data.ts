import { expect, type APIRequestContext } from "./support/test";

const json = { headers: { Accept: "application/json" } };

export type ImportedInvoice = { id: number; number: string; lineIds: number[]; remove: () => Promise<void> };

/**
 * A payable invoice for the finance specs, imported the way a finance admin does it (a template
 * through /api/carrier_invoice_configs, then POST /api/invoices/import and its job), so the specs
 * run against any server database, PGlite included. `request` must be signed in as an invoice
 * admin. Two lines, {number}-A and {number}-B, with freight and a fuel levy; `payer` names both.
 * Dated two days back: inside every site's past fortnight, whatever its time zone (the admin's
 * default site is Los Angeles).
 */
export async function importPayableInvoice(request: APIRequestContext, number: string, opts: { carrierCode?: string; payer?: string } = {}): Promise<ImportedInvoice> {
  const carriers = (await (await request.get("/api/carriers", json)).json()) as { carriers: Array<{ id: number; code: string }> };
  const carrier = carriers.carriers.find((c) => c.code === (opts.carrierCode ?? "auspost"));
  if (!carrier) throw new Error(`the demo has no carrier ${opts.carrierCode ?? "auspost"}`);
  const made = await request.post("/api/carrier_invoice_configs", {
    ...json,
    data: {
      name: `E2E template ${number}`,
      carrier_id: carrier.id,
      parser: { format: "CSV", sheets: [] },
      transformations: [
        { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
        {
          type: "MapFields",
          options: {
            mappings: [
              { field: "invoice_number", column: "Inv" },
              { field: "invoice_date", column: "Date" },
              { field: "consignment_number", column: "Con" },
              { field: "receiver_name", column: "Receiver" },
              { field: "payer", column: "Payer" },
            ],
            costs: [
              { category: "freight_charge", column: "Freight", description: "Freight" },
              { category: "fuel_charge", column: "Fuel" },
            ],
          },
        },
      ],
    },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const config = (await made.json()) as { id: number };
  const d = new Date(Date.now() - 2 * 86_400_000);
  const date = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const payer = opts.payer ?? "";
  const csv = `Inv,Date,Con,Receiver,Payer,Freight,Fuel\n${number},${date},${number}-A,Brisbane Hardware,${payer},15.00,1.50\n${number},${date},${number}-B,Brisbane Hardware,${payer},15.00,1.50\n`;
  const started = await request.post("/api/invoices/import", {
    ...json,
    multipart: { config_id: String(config.id), files: { name: `${number}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) } },
  });
  expect(started.status(), await started.text()).toBeLessThan(300);
  const { job_id: job } = (await started.json()) as { job_id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/job_status/${job}`, json)).json()) as { status: string }).status, { timeout: 30_000 })
    .toMatch(/^complete/);
  const list = (await (await request.get("/api/invoices?state=all", json)).json()) as { invoices: Array<{ id: number; invoice_number: string }> };
  const invoice = list.invoices.find((i) => i.invoice_number === number);
  if (!invoice) throw new Error(`invoice ${number} was not imported`);
  const lines = (await (await request.get(`/api/invoice_details?invoice_id=${invoice.id}&order_by=consignment_number`, json)).json()) as { invoice_details: Array<{ id: number }> };
  return {
    id: invoice.id,
    number,
    lineIds: lines.invoice_details.map((l) => l.id),
    async remove() {
      await request.delete(`/api/invoices/${invoice.id}`, json);
      await request.delete(`/api/carrier_invoice_configs/${config.id}`, json);
    },
  };
}
