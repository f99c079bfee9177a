/**
 * Declarations after the dangerous goods document (issue 16 item 8): when a consignment's customer
 * has print_declarations on, the declarations of the item types its dangerous-goods items use,
 * and the customer's declarations for every item type, follow the document. The PDF gets their
 * pages appended (pdf-lib: Chromium prints only HTML); the HTML preview lists them by name
 * (not as links: the files are staff-only, and despatchers print these documents).
 * Each declaration prints once per batch, after all the batch's documents.
 */
import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, declarations } from "../../../db/schema";
import type { ConsignmentJson } from "../consignments/consignments.server";
import { escapeHtml } from "../../utils/html";

export interface PrintedDeclaration {
  id: number;
  customerId: number;
  name: string;
  filename: string;
}

/** The declarations to print after these consignments' dangerous goods documents, in order. */
export async function declarationsToPrint(db: DbOrTx, list: Pick<ConsignmentJson, "customer_id" | "items">[]): Promise<PrintedDeclaration[]> {
  const customerIds = [...new Set(list.map((c) => c.customer_id))];
  if (!customerIds.length) return [];
  const printing = await db.select({ id: customers.id }).from(customers).where(and(inArray(customers.id, customerIds), eq(customers.printDeclarations, true)));
  const out: PrintedDeclaration[] = [];
  for (const { id: customerId } of printing) {
    const typeIds = [
      ...new Set(
        list
          .filter((c) => c.customer_id === customerId)
          .flatMap((c) => c.items)
          .filter((i) => i.dangerous_goods_items.length && i.item_type_id)
          .map((i) => i.item_type_id!),
      ),
    ];
    const rows = await db
      .select({ id: declarations.id, customerId: declarations.customerId, name: declarations.name, filename: declarations.filename })
      .from(declarations)
      .where(and(eq(declarations.customerId, customerId), or(isNull(declarations.itemTypeId), typeIds.length ? inArray(declarations.itemTypeId, typeIds) : undefined)))
      .orderBy(asc(declarations.name), asc(declarations.id));
    out.push(...rows);
  }
  return out;
}

/** The document's PDF with every declaration's pages appended. */
export async function appendDeclarations(db: DbOrTx, pdf: Uint8Array, list: PrintedDeclaration[]): Promise<Uint8Array> {
  if (!list.length) return pdf;
  // pdf-lib loaded when a declaration is printed, not at every process's start
  const { PDFDocument } = await import("pdf-lib");
  const merged = await PDFDocument.load(pdf);
  for (const d of list) {
    const [row] = await db.select({ content: declarations.content }).from(declarations).where(eq(declarations.id, d.id));
    if (!row) continue; // deleted since it was listed
    // checked readable on upload; should one still fail, the dangerous goods document prints without it
    try {
      const source = await PDFDocument.load(new Uint8Array(row.content), { ignoreEncryption: true });
      for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
    } catch (e) {
      console.warn(`[declarations] declaration ${d.id} could not be appended:`, e instanceof Error ? e.message : e);
    }
  }
  return merged.save();
}

/** The HTML preview with a note of the declarations that follow in the PDF. */
export function listDeclarationsHtml(html: string, list: PrintedDeclaration[]): string {
  if (!list.length) return html;
  const items = list
    .map((d) => `<li>${escapeHtml(d.name)} (${escapeHtml(d.filename)})</li>`)
    .join("");
  const note = `<section class="declarations" aria-label="Declarations"><h2>Declarations printed after this document</h2><ul>${items}</ul></section>`;
  return html.includes("</body>") ? html.replace("</body>", `${note}</body>`) : html + note;
}

/** A dangerous goods document response with the declarations added: pages to a PDF, a list to the preview. */
export async function withDeclarations(db: DbOrTx, list: Pick<ConsignmentJson, "customer_id" | "items">[], response: Response): Promise<Response> {
  if (!response.ok) return response;
  const printed = await declarationsToPrint(db, list);
  if (!printed.length) return response;
  const type = response.headers.get("content-type") ?? "";
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (type.startsWith("application/pdf")) {
    const pdf = await appendDeclarations(db, new Uint8Array(await response.arrayBuffer()), printed);
    return new Response(new Uint8Array(pdf), { status: response.status, headers });
  }
  if (type.startsWith("text/html")) return new Response(listDeclarationsHtml(await response.text(), printed), { status: response.status, headers });
  return response;
}
