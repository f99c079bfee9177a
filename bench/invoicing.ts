/**
 * Invoicing benchmark (issue 19 points 5 and 6): BENCH_INVOICING_LINES reconciled payable lines
 * (default 10,000) across BENCH_INVOICING_CUSTOMERS customers (default 20; a third grouped by
 * CUSTOMER, a third by SITE over two sites, a third by REGION over three receiver regions) billed by
 * the invoicing job's own function (runInvoicing: group, one transaction per invoice with its
 * gapless number, sell lines and GST, then each invoice's PDF rendered with the printing module's
 * Chromium and stored, and e-mailed through the database mailer for the half of the customers with
 * an invoicing e-mail). Target: under 60 s. The floor beside it: one PDF of an invoice of the same
 * size rendered alone, times the number of invoices, plus a plain INSERT ... SELECT of the same
 * lines (nothing grouped, priced or checked). `invoicingSection` answers the lines of
 * docs/performance.md. Alone: `NODE_ENV=production [DATABASE_URL=...] BENCH_INVOICING_LINES=300 npx tsx bench/invoicing.ts`.
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { customers, invoices, sites } from "../db/schema";
import { runInvoicing } from "../app/modules/invoicing/invoice.server";
import { invoiceDocument } from "../app/modules/invoicing/pdf.server";
import { createMailer } from "../app/modules/mail/mailer.server";
import type { Renderer } from "../app/modules/printing/renderer.server";
import { A4 } from "../print-templates/documents/Documents";
import { renderCustomerInvoiceHtml } from "../print-templates/documents/CustomerInvoice";
import { rowsOf } from "../app/utils/sql-rows";

const N = Number(process.env.BENCH_INVOICING_LINES ?? 10_000);
const CUSTOMERS = Number(process.env.BENCH_INVOICING_CUSTOMERS ?? 20);
const REGIONS = ["NSW", "VIC", "QLD"];

export interface InvoicingRun {
  lines: number;
  invoices: number;
  seconds: number;
  emailed: number;
  pdfSeconds: number;
  insertSeconds: number;
}

/** The reconciled lines: one payable invoice per customer, lines with two cost lines each, written in bulk. */
async function makeLines(db: Db, tag: string): Promise<number[]> {
  const ids: number[] = [];
  const perCustomer = Math.ceil(N / CUSTOMERS);
  for (let c = 0; c < CUSTOMERS; c++) {
    const by = (["CUSTOMER", "SITE", "REGION"] as const)[c % 3]!;
    const [cust] = await db
      .insert(customers)
      .values({ code: `BI${tag}${c}`, name: `Bench invoicing ${tag} ${c}`, billingAddress: { name: `Bench ${c}`, address_line_1: "1 Bench St", locality: "SYDNEY", postcode: "2000", region: "NSW", country: "AUSTRALIA" }, options: { invoice_allocate_by: by, ...(c % 2 ? { invoicing_email: `bench${c}@example.net` } : {}) } })
      .returning({ id: customers.id });
    const siteRows = await db
      .insert(sites)
      .values([0, 1].map((s) => ({ customerId: cust!.id, code: `S${s}`, name: `Site ${s}`, country: "AUSTRALIA", region: REGIONS[s], timezone: "Australia/Sydney" })))
      .returning({ id: sites.id });
    const [inv] = await db.insert(invoices).values({ accountingType: "payable", invoiceNumber: `BENCH-${tag}-${c}`, state: "allocated", total: "0" }).returning({ id: invoices.id });
    const count = Math.min(perCustomer, N - c * perCustomer);
    if (count <= 0) break;
    const rows = Array.from({ length: count }, (_, i) => ({
      n: i + 1,
      site: siteRows[i % 2]!.id,
      region: REGIONS[i % 3],
      con: `BCN${tag}${c}-${i}`,
      freight: (10 + (i % 97) + 0.25).toFixed(2),
      fuel: (1 + (i % 7) * 0.1).toFixed(2),
    }));
    const made = rowsOf<{ id: number }>(
      await db.execute(sql`
        with l as (select * from json_to_recordset(${JSON.stringify(rows)}::json) as x(n int, site int, region text, con text, freight numeric, fuel numeric)),
        d as (
          insert into invoice_details (invoice_id, line_number, customer_id, site_id, state, consignment_number, receiver_name, receiver_region, reference, despatch_date, total_cost)
          select ${inv!.id}, l.n, ${cust!.id}, l.site, 'allocated', l.con, 'Receiver ' || l.n, l.region, 'REF-' || l.n, current_date - 2, l.freight + l.fuel from l
          returning id, consignment_number, total_cost
        ),
        c as (
          insert into invoice_costs (invoice_detail_id, category, description, amount)
          select d.id, 'freight_charge', 'Freight', l.freight from d join l on l.con = d.consignment_number
          union all select d.id, 'fuel_charge', 'Fuel levy', l.fuel from d join l on l.con = d.consignment_number
        ),
        r as (insert into reconciliations (invoice_detail_id, customer_id, state, charge_from_consignment) select d.id, ${cust!.id}, 'reconciled', false from d)
        select id from d`),
    );
    ids.push(...made.map((m) => m.id));
  }
  return ids;
}

export async function benchInvoicing(db: Db, renderer: Renderer): Promise<InvoicingRun> {
  const tag = Date.now().toString(36);
  const ids = await makeLines(db, tag);
  await renderer.warm();
  const t0 = performance.now();
  const result = await runInvoicing({ db, mailer: createMailer(db, { from: "bench@freightdesk.local" }), renderer }, { invoiceDetailIds: ids, userId: null });
  const seconds = (performance.now() - t0) / 1000;
  if (result.skipped || result.invoices.some((i) => !i.pdf)) throw new Error(`invoicing bench: ${result.skipped} skipped, ${result.invoices.filter((i) => !i.pdf).length} without a PDF`);

  // the floor: one invoice's PDF alone, times the invoices; and the lines written plainly
  const typical = await invoiceDocument(db, result.invoices[0]!.id);
  const r0 = performance.now();
  await renderer.renderPdf(renderCustomerInvoiceHtml(typical!.doc), A4);
  const pdfSeconds = ((performance.now() - r0) / 1000) * result.invoices.length;
  const i0 = performance.now();
  await db
    .transaction(async (tx) => {
      const [inv] = await tx.insert(invoices).values({ accountingType: "receivable", state: "invoiced", total: "0" }).returning({ id: invoices.id });
      await tx.execute(sql`insert into invoice_details (invoice_id, line_number, customer_id, site_id, state, consignment_number, receiver_name, receiver_region, reference, despatch_date, total_cost)
        select ${inv!.id}, line_number, customer_id, site_id, 'invoiced', consignment_number, receiver_name, receiver_region, reference, despatch_date, total_cost
        from invoice_details where id = any(${`{${ids.join(",")}}`}::int[])`);
      throw new Error("rolled back");
    })
    .catch(() => {});
  const insertSeconds = (performance.now() - i0) / 1000;
  return { lines: ids.length, invoices: result.invoices.length, seconds, emailed: result.invoices.filter((i) => i.emailed).length, pdfSeconds, insertSeconds };
}

export function invoicingLines(r: InvoicingRun, kind: string): string[] {
  const s = (n: number) => `${n.toFixed(1)} s`;
  return [
    "| what | lines | invoices | time | lines/s | floor (PDFs + plain insert) | target |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    `| invoicing job (${kind}) | ${r.lines} | ${r.invoices} (${r.emailed} e-mailed) | ${s(r.seconds)} | ${Math.round(r.lines / r.seconds)} | ${s(r.pdfSeconds + r.insertSeconds)} (${s(r.pdfSeconds)} + ${s(r.insertSeconds)}) | < 60 s ${r.seconds < 60 ? "met" : "not met"} |`,
  ];
}

/** The section of docs/performance.md. */
export async function invoicingSection(db: Db, renderer: Renderer, kind: string): Promise<string[]> {
  const run = await benchInvoicing(db, renderer);
  return [
    "## Finance: customer invoicing",
    "",
    `Target (issue 19): ${N.toLocaleString("en")} reconciled lines across ${CUSTOMERS} customers invoiced, with every invoice's PDF, in under 60 s. Measured by \`bench/invoicing.ts\`: the invoicing job's own function (group by invoice_allocate_by, one transaction per invoice with its gapless number, sell lines and GST, then its PDF rendered by Chromium, stored, and e-mailed for half the customers). The floor: one PDF of the same size rendered alone times the number of invoices, plus one INSERT ... SELECT of the same lines (rolled back).`,
    "",
    ...invoicingLines(run, kind),
    "",
  ];
}

// alone: a database of its own
if (import.meta.url === `file://${process.argv[1]}`) {
  const os = await import("node:os");
  const { createTestDatabase } = await import("../tests/support/database");
  const { createRenderer } = await import("../app/modules/printing/renderer.server");
  const test = await createTestDatabase();
  const renderer = createRenderer();
  try {
    console.log(`${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}, ${test.database.kind}`);
    console.log((await invoicingSection(test.database.db, renderer, test.database.kind)).join("\n"));
  } finally {
    await renderer.close();
    await test.drop();
  }
  process.exit(0);
}
