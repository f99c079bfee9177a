/**
 * Demo carrier invoices (issue 18 item 9; docs/decisions/019 "Demo invoices"): three templates
 * saved through the template module, three files written from the demo's despatched consignments
 * and imported through the import job's own function (so each invoice keeps its file), two of them
 * allocated by the allocation job's function and reconciled by the reconcile job's (issue 19:
 * the lines billed as rated come out reconciled, the others reconciling with their reasons), one
 * left for the Allocate button, and two allocation rules. Runs once: a database that has the demo
 * templates gets nothing more.
 */
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../client.server";
import { carrierInvoiceConfigs, carriers, users } from "../../schema";
import { loadCurrentUser, type CurrentUser } from "../../../app/modules/auth/current-user.server";
import { plusDays } from "../../../app/modules/calendar/dates";
import { todayIn } from "../../../app/modules/calendar/site-time";
import { runAllocation } from "../../../app/modules/allocation/allocate.server";
import { saveRule } from "../../../app/modules/allocation/rules.server";
import { reconcileAndRerate } from "../../../app/modules/reconciliation/reconcile-job.server";
import { checkUpload, storeInvoiceFile } from "../../../app/modules/invoices/files.server";
import { runInvoiceImport } from "../../../app/modules/invoices/import.server";
import { saveConfig } from "../../../app/modules/invoices/templates/configs.server";
import { seedDespatchedConsignments, type DemoConsignment } from "./consignments";
import { auspostXlsx, northlineCsv, simexXls, type DemoFile } from "./layouts";
import { auspostTemplate, northlineTemplate, simexTemplate, TEMPLATE_NAMES } from "./templates";

export { NEVER_ISSUED } from "./layouts";
export { TEMPLATE_NAMES } from "./templates";
export const DEMO_INVOICE_NUMBERS = { NORTHLINE: "NLI-0048213", auspost: "7740021563", SIMEX: "SXS-018842" } as const;

type Code = keyof typeof TEMPLATE_NAMES;
interface Plan {
  code: Code;
  template: (carrierId: number) => { parser: { format: string } };
  file: (cons: DemoConsignment[], number: string, date: string) => DemoFile | Promise<DemoFile>;
  /** days before today (Melbourne) the invoice is dated: inside every site's past fortnight */
  daysAgo: number;
  allocate: boolean;
}
const PLANS: Plan[] = [
  { code: "NORTHLINE", template: northlineTemplate, file: northlineCsv, daysAgo: 2, allocate: true },
  { code: "auspost", template: auspostTemplate, file: auspostXlsx, daysAgo: 3, allocate: true },
  { code: "SIMEX", template: simexTemplate, file: simexXls, daysAgo: 5, allocate: false },
];

export async function seedDemoInvoices(db: Db): Promise<{ invoiceIds: number[] } | null> {
  const done = await db.select({ id: carrierInvoiceConfigs.id }).from(carrierInvoiceConfigs).where(inArray(carrierInvoiceConfigs.name, Object.values(TEMPLATE_NAMES)));
  if (done.length) return null;
  const carrierRows = await db.select({ id: carriers.id, code: carriers.code }).from(carriers).where(inArray(carriers.code, Object.keys(TEMPLATE_NAMES)));
  const [adminRow] = await db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
  const admin = adminRow && (await loadCurrentUser(db, adminRow.id));
  if (carrierRows.length !== PLANS.length || !admin) return null;
  const carrierId = (code: Code) => carrierRows.find((c) => c.code === code)!.id;

  const consignments = await seedDespatchedConsignments(db);
  const today = todayIn("Australia/Melbourne");
  const invoiceIds: number[] = [];
  for (const plan of PLANS) {
    const config = await saveConfig(db, admin, null, plan.template(carrierId(plan.code)));
    const file = await plan.file(
      consignments.filter((c) => c.carrier === plan.code),
      DEMO_INVOICE_NUMBERS[plan.code],
      plusDays(today, -plan.daysAgo),
    );
    const ids = await importFile(db, admin, config.id, config.parser.format, file);
    if (plan.allocate) {
      await runAllocation(db, { invoiceIds: ids, invoiceDetailIds: [] }, async () => {});
      await reconcileAndRerate(db, { invoiceIds: ids });
    }
    invoiceIds.push(...ids);
  }
  await seedAllocationRules(db, admin);
  return { invoiceIds };
}

/** As an upload would: checked, kept under a random name, then the import job's function. */
async function importFile(db: Db, admin: CurrentUser, configId: number, format: "CSV" | "XLSX" | "XLS", file: DemoFile): Promise<number[]> {
  const upload = checkUpload(new File([new Uint8Array(file.body)], file.name), format, "files");
  const stored = await storeInvoiceFile(db, upload, format);
  const result = await runInvoiceImport(db, { configId, userId: admin.id, files: [{ stored, name: file.name, format }] }, async () => {});
  const errors = result.files.flatMap((f) => f.errors);
  if (errors.length) throw new Error(`demo invoice ${file.name} was refused: ${errors.join("; ")}`);
  return result.invoice_ids;
}

/**
 * Simulated Express bills every account of the demo customer: its lines without a known
 * consignment find their customer and site by the account number they carry.
 */
async function seedAllocationRules(db: Db, admin: CurrentUser) {
  const lookup = { from_matcher: { field: "account_number" }, to_matcher: { model: "Account", field: "account_number" } };
  await saveRule(db, admin, null, { carrier_code: "SIMEX", allocation_model: "Customer", type: "Lookup", options: lookup });
  await saveRule(db, admin, null, { carrier_code: "SIMEX", allocation_model: "Site", type: "Lookup", options: lookup });
}
