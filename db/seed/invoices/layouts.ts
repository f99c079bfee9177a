/**
 * The demo carriers' invoice files, written from their despatched consignments' rated buy costs
 * (issue 18 item 9), each in a carrier's own layout, with a few discrepancies on purpose so that
 * finance has real work: a charge weight above the rated one, another zone, a surcharge that was
 * not rated, and a consignment number the system never issued.
 */
import * as XLSX from "@e965/xlsx";
import { cents, type CostCategory } from "../../../app/modules/rating/engine";
import { plusDays } from "../../../app/modules/calendar/dates";
import type { DemoConsignment } from "./consignments";

export interface DemoFile {
  name: string;
  body: Buffer;
  invoiceNumber: string;
}

/** Consignment numbers in the files that no account ever issued (below every demo range). */
export const NEVER_ISSUED = { NORTHLINE: "NLMEL0004417", SIMEX: "SXSYD0000815" } as const;

const buy = (c: DemoConsignment, category: CostCategory) => c.detail.buy.filter((l) => l.category === category).reduce((s, l) => s + l.amount, 0);
const others = (c: DemoConsignment) => cents(c.detail.buy.filter((l) => l.category !== "freight_charge" && l.category !== "fuel_charge" && l.category !== "gst").reduce((s, l) => s + l.amount, 0));
const dmy = (iso: string, sep = "/") => iso.split("-").reverse().join(sep);
const money = (n: number) => `$${n.toLocaleString("en-AU", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const csvCell = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const dMonY = (iso: string) => `${Number(iso.slice(8))}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;

/** ISO week of a date, as 2026-W47 (the week of its Thursday). */
export function isoWeek(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const thursday = plusDays(iso, 3 - ((d.getUTCDay() + 6) % 7));
  const jan1 = Date.parse(`${thursday.slice(0, 4)}-01-01T00:00:00Z`);
  const week = Math.floor((Date.parse(`${thursday}T00:00:00Z`) - jan1) / 86_400_000 / 7) + 1;
  return `${thursday.slice(0, 4)}-W${String(week).padStart(2, "0")}`;
}

/** A line billed on a heavier weight than rated: freight and fuel grow with it. */
function heavier(c: DemoConsignment, factor: number) {
  const ratio = Math.ceil(c.detail.charge_weight * factor) / c.detail.charge_weight;
  return { weight: Math.ceil(c.detail.charge_weight * factor), freight: cents(buy(c, "freight_charge") * ratio), fuel: cents(buy(c, "fuel_charge") * ratio) };
}

/**
 * Northline, CSV: a letterhead and invoice preamble, a header row, one line per consignment with
 * "$" amounts, and a total row. Line 1 is billed heavier; a last line names a number never issued.
 */
export function northlineCsv(cons: DemoConsignment[], invoiceNumber: string, invoiceDate: string): DemoFile {
  const header = ["Invoice No", "Invoice Date", "Account No", "Con Note", "Despatch Date", "Sender", "Sender Suburb", "Sender Postcode", "Receiver", "Receiver Suburb", "Receiver Postcode", "Service", "From Zone", "To Zone", "Items", "Dead Weight (kg)", "Charge Weight (kg)", "Freight", "Fuel Levy", "Surcharges", "Total Ex GST"];
  const rows: (string | number)[][] = [];
  for (const [i, c] of cons.entries()) {
    const w = i === 0 ? heavier(c, 1.12) : { weight: c.detail.charge_weight, freight: cents(buy(c, "freight_charge")), fuel: cents(buy(c, "fuel_charge")) };
    const sur = others(c);
    rows.push([invoiceNumber, dmy(invoiceDate), c.accountNumber, c.number, dmy(c.despatchDate), c.sender.name, c.sender.locality, c.sender.postcode, c.receiver.name, c.receiver.locality, c.receiver.postcode, c.serviceCode === "RXP" ? "Road Express" : "General Road", c.detail.from_zone ?? "", c.detail.to_zone ?? "", c.quantity, c.detail.dead_weight, w.weight, money(w.freight), money(w.fuel), money(sur), money(cents(w.freight + w.fuel + sur))]);
  }
  const first = cons[0]!;
  rows.push([invoiceNumber, dmy(invoiceDate), first.accountNumber, NEVER_ISSUED.NORTHLINE, dmy(first.despatchDate), first.sender.name, first.sender.locality, first.sender.postcode, "Geelong Fasteners", "NORTH GEELONG", "3215", "General Road", "V1", "V1", 3, 36, 36, money(42.1), money(5.98), money(0), money(48.08)]);
  const total = cents(rows.reduce((s, r) => s + Number(String(r[20]).replace(/[$,]/g, "")), 0));
  const lines = [
    ["Northline Pty Ltd", "ABN 49 004 590 964", "Freight Solutions Nationally"],
    ["TAX INVOICE", `Invoice ${invoiceNumber}`, `Dated ${dmy(invoiceDate)}`, "Terms 30 days"],
    ["Bill to", "Acme Distribution", "120 Frankston Dandenong Road DANDENONG SOUTH VIC 3175"],
    [],
    header,
    ...rows,
    ["", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "Total Ex GST", money(total)],
  ];
  const body = lines.map((l) => l.map(csvCell).join(",")).join("\r\n") + "\r\n";
  return { name: `Northline_Invoice_${invoiceNumber}.csv`, body: Buffer.from(body, "utf8"), invoiceNumber };
}

/**
 * Australia Post, XLSX: one row per charge (FRT freight, FSC fuel surcharge, MHS manual handling),
 * a consignment's charges together. Line 2 is billed to another zone; line 3 carries a manual
 * handling surcharge that was never rated.
 */
export async function auspostXlsx(cons: DemoConsignment[], invoiceNumber: string, invoiceDate: string): Promise<DemoFile> {
  const header = ["Invoice Number", "Invoice Date", "Account Number", "Consignment ID", "Lodgement Date", "Product", "Charge Code", "Charge Description", "Billed Weight (kg)", "From Zone", "To Zone", "Addressee", "Suburb", "Postcode", "State", "Amount Ex GST", "GST", "Amount Inc GST"];
  const rows: (string | number)[][] = [header];
  for (const [i, c] of cons.entries()) {
    const product = c.serviceCode === "EXP" ? "Express Post" : "Parcel Post";
    const otherZone = i === 1;
    const freight = otherZone ? cents(buy(c, "freight_charge") * 1.18) : cents(buy(c, "freight_charge"));
    const fuel = otherZone ? cents(buy(c, "fuel_charge") * 1.18) : cents(buy(c, "fuel_charge"));
    const toZone = otherZone ? `${(c.detail.to_zone ?? "S1").replace(/\d+$/, "")}2` : (c.detail.to_zone ?? "");
    const charges: [string, string, number][] = [["FRT", "Parcel freight", freight], ["FSC", "Fuel surcharge", fuel]];
    if (i === 2) charges.push(["MHS", "Manual handling surcharge", 14.5]);
    for (const [code, text, amount] of charges) {
      const gst = cents(amount * 0.1);
      rows.push([invoiceNumber, dMonY(invoiceDate), c.accountNumber, c.number, dMonY(c.despatchDate), product, code, text, c.detail.charge_weight, c.detail.from_zone ?? "", toZone, c.receiver.name, c.receiver.locality, c.receiver.postcode, c.receiver.region, amount, gst, cents(amount + gst)]);
    }
  }
  // written as Excel orders the parts (workbook before sheets): a SheetJS-written XLSX lists the
  // sheet first, and the streaming reader then sometimes fails on it ("reading 'sheets'")
  // exceljs loaded when the demo's Australia Post file is made, not at every process's start
  const { default: ExcelJS } = await import("exceljs");
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet("Charges").addRows(rows);
  return { name: `AusPost_eParcel_${invoiceNumber}.xlsx`, body: Buffer.from(await wb.xlsx.writeBuffer()), invoiceNumber };
}

/**
 * Simulated Express, legacy XLS: a title row, a header row, one line per consignment with the
 * billing period as an ISO week. Line 1 is billed heavier; a last line names a number never issued.
 */
export function simexXls(cons: DemoConsignment[], invoiceNumber: string, invoiceDate: string): DemoFile {
  const header = ["Statement No", "Statement Date", "Billing Week", "Account", "Connote", "Service", "Pieces", "Actual Kg", "Billed Kg", "Origin Zone", "Dest Zone", "Consignee", "Consignee Suburb", "Consignee P/Code", "Base Charge", "Fuel", "Net Amount"];
  const rows: (string | number)[][] = [["Simulated Express Pty Ltd - Weekly Freight Statement", "", `Statement ${invoiceNumber}`], header];
  const line = (c: DemoConsignment, number: string, weight: number, freight: number, fuel: number) =>
    rows.push([invoiceNumber, dmy(invoiceDate, "."), isoWeek(c.despatchDate), c.accountNumber, number, "Overnight", c.quantity, c.detail.dead_weight, weight, c.detail.from_zone ?? "", c.detail.to_zone ?? "", c.receiver.name, c.receiver.locality, c.receiver.postcode, freight, fuel, cents(freight + fuel)]);
  for (const [i, c] of cons.entries()) {
    const w = i === 0 ? heavier(c, 1.25) : { weight: c.detail.charge_weight, freight: cents(buy(c, "freight_charge")), fuel: cents(buy(c, "fuel_charge")) };
    line(c, c.number, w.weight, w.freight, w.fuel);
  }
  line(cons[cons.length - 1]!, NEVER_ISSUED.SIMEX, 4, 31.2, 3.43);
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), "Statement");
  return { name: `SIMEX_Statement_${invoiceNumber}.xls`, body: XLSX.write(wb, { type: "buffer", bookType: "biff8" }) as Buffer, invoiceNumber };
}
