import { and, asc, eq, gt } from "drizzle-orm";
import { writeToString } from "@fast-csv/format";
import type { DbOrTx } from "../../../db/client.server";
import { addresses } from "../../../db/schema";
import { addressJson } from "../addresses/address-json";
import { neutraliseFormula } from "../../utils/csv.server";
import { RECIPIENT_COLUMNS } from "./limits";

const PAGE = 2000;

/**
 * GET /api/export_recipients/{customerId}: the whole address book as CSV in the import's columns
 * (so an export imports back), streamed page by page by id; cells a spreadsheet would run as a
 * formula are neutralised.
 */
export function exportRecipientsCsv(db: DbOrTx, customer: { id: number; name: string }): Response {
  const encoder = new TextEncoder();
  let after = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = await db
        .select()
        .from(addresses)
        .where(and(eq(addresses.customerId, customer.id), eq(addresses.isRecipient, true), gt(addresses.id, after)))
        .orderBy(asc(addresses.id))
        .limit(PAGE);
      const lines = rows.map((r) => {
        const json = addressJson(r) as unknown as Record<string, unknown>;
        return RECIPIENT_COLUMNS.map((c) => neutraliseFormula(json[c]));
      });
      const text = await writeToString(started ? lines : [[...RECIPIENT_COLUMNS], ...lines], { includeEndRowDelimiter: true });
      started = true;
      if (text) controller.enqueue(encoder.encode(text));
      if (rows.length < PAGE) controller.close();
      else after = rows[rows.length - 1]!.id;
    },
  });
  const filename = `recipients-${customer.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || customer.id}.csv`;
  return new Response(stream, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" } });
}
