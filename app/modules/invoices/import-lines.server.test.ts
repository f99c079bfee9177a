/**
 * The import's line writer (import-lines.server.ts) through the job's own function, on the
 * database the run has (PostgreSQL with DATABASE_URL: COPY; else PGlite: JSON statements): text
 * that COPY must escape comes back as it was, cost lines sit on their own lines across several
 * chunks and invoices, and a file refused after chunks were sent, by a row or by the database
 * itself, leaves nothing and leaves the transaction's connection fit for the next file.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../../db/client.server";
import { carrierInvoiceConfigs, carrierInvoiceTransformations, carriers, customers, invoiceCosts, invoiceDetails, invoices, users } from "../../../db/schema";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { sqlState } from "../../utils/http.server";
import { putFile } from "../files/index.server";
import { COPY_CHUNKS, copyValue, JSON_CHUNK, lineWriter } from "./import-lines.server";
import { runInvoiceImport } from "./import.server";
import { FAILED_TO_READ } from "./templates/readers.server";

let test: TestDatabase;
let db: Db;
let configId = 0;
let userId = 0;
let chunk = 0;

const STEPS = [
  { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
  {
    type: "MapFields",
    options: {
      mappings: [
        { field: "invoice_number", column: "Inv" }, { field: "consignment_number", column: "Con" }, { field: "reference", column: "Ref" },
        { field: "dangerous_goods", column: "DG" }, { field: "total_quantity", column: "Items" }, { field: "total_weight_in_uom", column: "Kg" },
      ],
      costs: [{ category: "freight_charge", column: "Freight" }, { category: "fuel_charge", column: "Fuel" }],
    },
  },
];

const csvCell = (c: string) => (/[",\n\r]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
const csvOf = (rows: string[][]) => `Inv,Con,Ref,DG,Items,Kg,Freight,Fuel\n${rows.map((r) => r.map(csvCell).join(",")).join("\n")}\n`;

async function importCsv(text: string) {
  const { id } = await putFile(db, { kind: "carrier_invoice", name: "lines.csv", contentType: "text/csv" }, text);
  const result = await runInvoiceImport(db, { configId, userId, files: [{ stored: id, name: "lines.csv", format: "CSV" }] }, async () => {});
  return result.files[0]!;
}

beforeAll(async () => {
  test = await createTestDatabase();
  db = test.database.db;
  const [customer] = await db.insert(customers).values({ code: "LW", name: "Line writer" }).returning({ id: customers.id });
  const [user] = await db.insert(users).values({ customerId: customer!.id, email: "lw@example.com", fullName: "LW", passwordHash: "x" }).returning({ id: users.id });
  const [carrier] = await db.insert(carriers).values({ name: "LW Carrier", code: "LWC" }).returning({ id: carriers.id });
  const [config] = await db.insert(carrierInvoiceConfigs).values({ name: "LW", carrierId: carrier!.id, parser: { format: "CSV", sheets: [] } }).returning({ id: carrierInvoiceConfigs.id });
  await db.insert(carrierInvoiceTransformations).values(STEPS.map((s, i) => ({ configId: config!.id, type: s.type as never, sequence: s.type === "MapFields" ? 999999 : i + 1, options: s.options })));
  userId = user!.id;
  configId = config!.id;
  // the steady chunk, after the first
  chunk = test.database.kind === "postgres" ? COPY_CHUNKS.then : JSON_CHUNK;
}, 60_000);
afterAll(async () => {
  await test.drop();
});

describe("COPY's text format", () => {
  it("writes null as \\N and escapes the backslash and the separators", () => {
    expect([null, undefined, true, false, 12.5, "plain"].map(copyValue)).toEqual(["\\N", "\\N", "t", "f", "12.5", "plain"]);
    expect(copyValue("a\tb\nc\rd\\e\\N")).toBe("a\\tb\\nc\\rd\\\\e\\\\N");
  });
});

describe("the lines written", () => {
  it("keep text with tabs, line breaks, backslashes, quotes and a literal \\N as it was, and blanks as null", async () => {
    const refs = ["tab\there", "two\nlines", "C:\\carrier\\N", "\\N", 'say "hi", ok', "Zürich 東京"];
    const file = await importCsv(csvOf([...refs.map((r, i) => ["ESC-1", `E${i}`, r, i % 2 ? "yes" : "no", String(i), "1.5", "10", ""]), ["ESC-1", "E-blank", "", "", "", "", "", ""]]));
    expect(file.errors).toEqual([]);
    const lines = await db.select().from(invoiceDetails).where(inArray(invoiceDetails.consignmentNumber, [...refs.map((_, i) => `E${i}`), "E-blank"])).orderBy(asc(invoiceDetails.lineNumber));
    expect(lines.map((l) => l.reference)).toEqual([...refs, null]);
    expect(lines.map((l) => [l.dangerousGoods, l.totalQuantity, l.totalWeightInUom, l.totalCost, l.state])).toEqual([
      ...refs.map((_, i) => [i % 2 === 1, i, "1.500", "10.00", "unallocated"]),
      [false, null, null, "0.00", "unallocated"],
    ]);
  });

  it("puts each cost line on its own line over several chunks and two invoices, the second opened mid-chunk", async () => {
    const n = chunk * 2 + 321;
    const rows = Array.from({ length: n }, (_, i) => [i < chunk + 7 ? "MANY-1" : "MANY-2", `M${i}`, `R${i}`, "", "1", "2", String(100 + i), i % 3 ? "1.25" : ""]);
    const file = await importCsv(csvOf(rows));
    expect(file.errors).toEqual([]);
    expect(file).toMatchObject({ invoices: ["MANY-1", "MANY-2"], lines: n });
    const got = await db
      .select({ con: invoiceDetails.consignmentNumber, line: invoiceDetails.lineNumber, invoice: invoices.invoiceNumber, freight: sql<string>`sum(${invoiceCosts.amount}) filter (where ${invoiceCosts.category} = 'freight_charge')`, fuel: sql<string | null>`sum(${invoiceCosts.amount}) filter (where ${invoiceCosts.category} = 'fuel_charge')` })
      .from(invoiceDetails)
      .innerJoin(invoices, eq(invoices.id, invoiceDetails.invoiceId))
      .innerJoin(invoiceCosts, eq(invoiceCosts.invoiceDetailId, invoiceDetails.id))
      .where(inArray(invoices.invoiceNumber, ["MANY-1", "MANY-2"]))
      .groupBy(invoiceDetails.id, invoices.invoiceNumber)
      .orderBy(asc(invoiceDetails.lineNumber));
    expect(got).toHaveLength(n);
    got.forEach((g, i) => {
      expect([g.con, g.line, g.invoice, Number(g.freight), g.fuel === null ? null : Number(g.fuel)]).toEqual([`M${i}`, i + 1, i < chunk + 7 ? "MANY-1" : "MANY-2", 100 + i, i % 3 ? 1.25 : null]);
    });
  });
});

describe("invoices opened while lines are being written", () => {
  it("each get their own lines: a new invoice every 40 lines over several chunks", async () => {
    const n = chunk * 5 + 500;
    const number = (i: number) => `OFTEN-${Math.floor(i / 40)}`;
    const file = await importCsv(csvOf(Array.from({ length: n }, (_, i) => [number(i), `O${i}`, "", "", "1", "1", "3", ""])));
    expect(file.errors).toEqual([]);
    expect(file.lines).toBe(n);
    // every line on the invoice its row named
    const [{ lines }] = (await db.select({ lines: sql<number>`count(*)::int` }).from(invoiceDetails).innerJoin(invoices, eq(invoices.id, invoiceDetails.invoiceId)).where(sql`${invoices.invoiceNumber} like 'OFTEN-%' and substring(${invoices.invoiceNumber} from 7)::int = (${invoiceDetails.lineNumber} - 1) / 40 and ${invoiceDetails.consignmentNumber} = 'O' || (${invoiceDetails.lineNumber} - 1)`)) as [{ lines: number }];
    expect(lines).toBe(n);
  });
});

describe("the line ids", () => {
  it("are taken from the sequence again when the rows counted first fall short", async () => {
    const [carrier] = await db.select({ id: carriers.id }).from(carriers).where(eq(carriers.code, "LWC"));
    const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ row: from + i, invoice: { invoiceNumber: "SHORT-1", invoiceDate: null, total: null }, detail: { consignment_number: `S${from + i}` }, costs: [{ category: "freight_charge" as const, description: "Freight", amount: 1 }] }));
    let first = 0;
    const ids = await db.transaction(async (tx) => {
      const [inv] = await tx.insert(invoices).values({ accountingType: "payable", invoiceNumber: "SHORT-1", carrierId: carrier!.id }).returning({ id: invoices.id });
      const writer = lineWriter(tx, carrier!.id, 3);
      const invoiceId = Promise.resolve(inv!.id);
      first = writer.chunk;
      await writer.write(lines(0, first).map((line, i) => ({ invoiceId, line, n: i + 1 })), false);
      await writer.write(lines(first, 7).map((line, i) => ({ invoiceId, line, n: first + i + 1 })), true);
      return writer.exclusive(() =>
        tx.select({ id: invoiceDetails.id, costs: sql<number>`count(${invoiceCosts.id})::int` }).from(invoiceDetails).leftJoin(invoiceCosts, eq(invoiceCosts.invoiceDetailId, invoiceDetails.id)).where(eq(invoiceDetails.invoiceId, inv!.id)).groupBy(invoiceDetails.id),
      );
    });
    expect(ids).toHaveLength(first + 7);
    expect(new Set(ids.map((i) => i.id)).size).toBe(first + 7);
    expect(ids.every((i) => i.costs === 1)).toBe(true);
  });
});

describe("a file refused after chunks were sent", () => {
  const leftOf = async (number: string) => ({
    invoices: (await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.invoiceNumber, number))).length,
    lines: (await db.select({ id: invoiceDetails.id }).from(invoiceDetails).where(sql`${invoiceDetails.consignmentNumber} like ${`${number}-%`}`)).length,
  });
  const rowsOf = (number: string, n: number, bad: number, cell: number, value: string) =>
    Array.from({ length: n }, (_, i) => {
      const r = [number, `${number}-${i}`, "", "", "1", "1", "5", ""];
      if (i === bad) r[cell] = value;
      return r;
    });

  it("by a bad row leaves nothing, and the next file is imported", async () => {
    const file = await importCsv(csvOf(rowsOf("LATE-ROW", chunk * 2 + 10, chunk * 2 + 5, 4, "many")));
    // the row and what is wrong with its cell, in the field's words: no step, no internal name (issue 31 #6)
    expect(file.errors[0]).toMatch(/^Row \d+: 'many' in column Items is not a whole number for the quantity$/);
    expect(await leftOf("LATE-ROW")).toEqual({ invoices: 0, lines: 0 });
    expect((await importCsv(csvOf(rowsOf("AFTER-ROW", 3, -1, 0, "")))).errors).toEqual([]);
  });

  it("by an invoice number already billed, met mid-file, leaves nothing and names that invoice", async () => {
    expect((await importCsv(csvOf(rowsOf("BILLED-2", 2, -1, 0, "")))).errors).toEqual([]);
    const rows = [...rowsOf("FRESH-1", chunk + 50, -1, 0, ""), ...rowsOf("BILLED-2", 10, -1, 0, "").map((r) => [r[0]!, `FRESH-1-b${r[1]}`, ...r.slice(2)])];
    const file = await importCsv(csvOf(rows));
    expect(file.errors).toEqual(["Invoice BILLED-2 from LW Carrier has already been imported."]);
    expect(await leftOf("FRESH-1")).toEqual({ invoices: 0, lines: 0 });
    expect(await leftOf("BILLED-2")).toEqual({ invoices: 1, lines: 2 });
  });

  it("by the database (an amount too large for its column) leaves nothing, reports that refusal, and the next file is imported", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const file = await importCsv(csvOf(rowsOf("LATE-DB", chunk * 2 + 10, chunk + 5, 6, "99999999999")));
      expect(file.errors).toEqual([FAILED_TO_READ]);
      // the cause itself (numeric field overflow), not the "transaction is aborted" of the statement after it
      expect(sqlState(logged.mock.calls[0]?.[1])).toBe("22003");
    } finally {
      logged.mockRestore();
    }
    expect(await leftOf("LATE-DB")).toEqual({ invoices: 0, lines: 0 });
    expect((await importCsv(csvOf(rowsOf("AFTER-DB", chunk + 1, -1, 0, "")))).errors).toEqual([]);
    expect(await leftOf("AFTER-DB")).toEqual({ invoices: 1, lines: chunk + 1 });
  });
});
