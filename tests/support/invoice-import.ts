/**
 * Carrier invoice import tests' helpers: multipart posts of real files, templates made through
 * the API, and XLSX (exceljs) and XLS (@e965/xlsx) files written in memory.
 */
import { expect } from "vitest";
import ExcelJS from "exceljs";
import * as XLSX from "@e965/xlsx";
import type { Client } from "./server";
import type { Json } from "./despatch";

export interface Upload {
  field?: string;
  name: string;
  body: string | Uint8Array;
  type?: string;
}

/** A multipart POST as the Import dialog's fetch sends it; answers the status and JSON body. */
export async function postFiles(client: Client, path: string, fields: Record<string, string>, files: Upload[]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field ?? "files[]", new File([typeof f.body === "string" ? f.body : new Uint8Array(f.body)], f.name, { type: f.type ?? "text/csv" }));
  const res = await fetch(`${client.base}${path}`, { method: "POST", body: form, headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest", cookie: client.cookie } });
  const text = await res.text();
  let body: Json;
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { notJson: text.slice(0, 200) };
  }
  return { status: res.status, body };
}

/** Saves a template through the API; answers its id. */
export async function makeTemplate(admin: Client, template: { name: string; carrier_id: number; format: "CSV" | "XLSX" | "XLS"; sheets?: string[]; transformations: Json[] }): Promise<number> {
  const made = await admin.json<Json>("/api/carrier_invoice_configs", {
    method: "POST",
    json: { name: template.name, carrier_id: template.carrier_id, parser: { format: template.format, sheets: template.sheets ?? [] }, transformations: template.transformations },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.id as number;
}

/** An XLSX of one sheet; a cell may be an exceljs value (a Date, a formula with its cached result). */
export async function xlsxOf(rows: unknown[][], sheet = "Invoice"): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const ws = book.addWorksheet(sheet);
  for (const r of rows) ws.addRow(r);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A legacy XLS (BIFF8) of one sheet. */
export function xlsOf(rows: unknown[][], sheet = "Invoice"): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows, { cellDates: true }), sheet);
  return new Uint8Array(XLSX.write(book, { type: "buffer", bookType: "biff8" }) as Buffer);
}
