/**
 * The simulated accounting service (issue 17 item 8), a real path of the product as the simulated
 * carrier is: its own consent page (/simulated/myob/authorize), authorisation codes (single use,
 * five minutes), access tokens (twenty minutes, as MYOB's) with refresh tokens, a supplier list of
 * freight suppliers seeded on first use, the bills it was sent, customer cards (unique by Card ID)
 * and the sales invoices it was sent (unique by number). Its records live in simulated_accounting,
 * apart from the app's own.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { simulatedAccounting } from "../../../db/schema";
import {
  AccountingServiceError,
  type AccountingAdapter,
  type AccountingTokens,
  type CustomerCard,
  type ExportedBill,
  type ExportedSale,
  type PayableBill,
  type SalesInvoice,
  type Supplier,
} from "./adapter";

export const SIMULATED_AUTHORIZE_PATH = "/simulated/myob/authorize";
export const SIMULATED_CLIENT_ID = "freightdesk-simulated";
export const SIMULATED_BUSINESS = { id: "7d3c1f0e-5b1a-4c2e-9f47-1a2b3c4d5e6f", name: "FreightDesk Logistics Pty Ltd" };
export const CODE_TTL_MS = 5 * 60 * 1000;
export const TOKEN_TTL_MS = 20 * 60 * 1000;

/** The freight suppliers the simulated company file starts with (uids fixed, so a mapping survives a reseed). */
export const SEED_SUPPLIERS: Array<{ name: string; abn: string }> = [
  { name: "Australia Post", abn: "28864970579" },
  { name: "StarTrack Express", abn: "44000512917" },
  { name: "Toll IPEC", abn: "51006604191" },
  { name: "Toll Priority", abn: "51006604192" },
  { name: "TNT Australia", abn: "13000025625" },
  { name: "Northline", abn: "82008288316" },
  { name: "Couriers Please", abn: "63099472574" },
  { name: "Aramex Australia", abn: "85136466710" },
  { name: "Direct Freight Express", abn: "31076346917" },
  { name: "Hunter Express", abn: "80003328893" },
  { name: "Allied Express", abn: "98000609346" },
  { name: "Border Express", abn: "54006370716" },
  { name: "Mainfreight", abn: "57091580393" },
  { name: "Followmont Transport", abn: "30010962185" },
  { name: "Team Global Express", abn: "11650491766" },
  { name: "Sendle", abn: "12159999016" },
  { name: "DHL Express Australia", abn: "15000627733" },
  { name: "FedEx Express Australia", abn: "60002856302" },
  { name: "Simulated Express", abn: "11222333444" },
  { name: "Bonds Express", abn: "33004463830" },
];

/** A seed supplier's uid: fixed per position, shaped as MYOB's (a GUID). */
export const seedSupplierUid = (i: number) => `5e1d0000-0000-4000-8000-${String(i + 1).padStart(12, "0")}`;

const secret = () => randomBytes(24).toString("base64url");
const money = (n: number) => Math.round(n * 100) / 100;

/** A bill's or a sale's tax and total (tax included), as the service works them out from its lines. */
export const totalsOf = (lines: Array<{ amount: number; tax: number }>) => ({
  tax: money(lines.reduce((sum, l) => sum + l.tax, 0)),
  total: money(lines.reduce((sum, l) => sum + l.amount + l.tax, 0)),
});

async function seedSuppliers(db: DbOrTx): Promise<void> {
  // on conflict: two first uses at once both seed, and the unique (kind, key) keeps one of each
  await db
    .insert(simulatedAccounting)
    .values(SEED_SUPPLIERS.map((s, i) => ({ kind: "supplier" as const, key: seedSupplierUid(i), data: { name: s.name, abn: s.abn } })))
    .onConflictDoNothing();
}

async function issueTokens(db: DbOrTx, businessId: string): Promise<AccountingTokens> {
  const accessToken = secret();
  const refreshToken = secret();
  const expiresAt = new Date(Date.now() + TOKEN_TTL_MS);
  await db.insert(simulatedAccounting).values([
    { kind: "token", key: `access:${accessToken}`, data: { businessId, expiresAt: expiresAt.toISOString() } },
    { kind: "token", key: `refresh:${refreshToken}`, data: { businessId } },
  ]);
  return { accessToken, refreshToken, expiresAt, businessId };
}

export const REDIRECT_NOT_REGISTERED = "redirect_uri is not registered for this client.";

/** The simulated service's side of the consent page; `registered` is the client's registered redirect URI. */
export const simulatedConsent = {
  /** The consent request's parameters, checked as an OAuth server checks them before showing anything. */
  check(params: URLSearchParams, registered: string): { state: string; redirectUri: string } {
    if (params.get("client_id") !== SIMULATED_CLIENT_ID) throw new AccountingServiceError("Unknown client_id.");
    if (params.get("response_type") !== "code") throw new AccountingServiceError("response_type must be code.");
    const redirectUri = params.get("redirect_uri") ?? "";
    // the client's one registered redirect, compared whole (issue 35 finding 9: any host with the
    // callback's path once passed, and the code and state went there)
    if (redirectUri !== registered) throw new AccountingServiceError(REDIRECT_NOT_REGISTERED);
    const state = params.get("state") ?? "";
    if (!state) throw new AccountingServiceError("state is required.");
    return { state, redirectUri };
  },

  /** Allow: a code for the redirect URI; Deny: access_denied. Either way the browser goes back with the state. */
  async decide(db: DbOrTx, input: { allow: boolean; state: string; redirectUri: string }): Promise<string> {
    const back = new URL(input.redirectUri);
    back.searchParams.set("state", input.state);
    if (!input.allow) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "Access was denied at the consent page");
      return back.toString();
    }
    const code = secret();
    await db.insert(simulatedAccounting).values({
      kind: "code",
      key: code,
      data: { redirectUri: input.redirectUri, businessId: SIMULATED_BUSINESS.id, expiresAt: new Date(Date.now() + CODE_TTL_MS).toISOString() },
    });
    back.searchParams.set("code", code);
    return back.toString();
  },
};

async function accessOf(db: DbOrTx, accessToken: string): Promise<string> {
  const [row] = await db
    .select({ data: simulatedAccounting.data })
    .from(simulatedAccounting)
    .where(and(eq(simulatedAccounting.kind, "token"), eq(simulatedAccounting.key, `access:${accessToken}`)));
  if (!row || Date.parse(String(row.data.expiresAt)) <= Date.now()) throw new AccountingServiceError("The access token is invalid or has expired.", "invalid_token");
  return String(row.data.businessId);
}

const cardOf = (row: { key: string; data: Record<string, unknown> }): CustomerCard => ({
  uid: String(row.data.uid),
  displayId: row.key,
  name: String(row.data.name),
  billingAddress: (row.data.billingAddress as CustomerCard["billingAddress"]) ?? null,
});

const supplierOf = (row: { key: string; data: Record<string, unknown> }): Supplier => ({ uid: row.key, name: String(row.data.name), abn: row.data.abn ? String(row.data.abn) : null });

/** The simulated service as an adapter, over the database it keeps its records in. */
export function simulatedAccountingAdapter(db: DbOrTx): AccountingAdapter {
  return {
    provider: "myob",
    authorizeUrl({ state, redirectUri }) {
      const query = new URLSearchParams({ client_id: SIMULATED_CLIENT_ID, response_type: "code", scope: "CompanyFile", redirect_uri: redirectUri, state });
      return `${SIMULATED_AUTHORIZE_PATH}?${query}`;
    },
    async exchangeCode({ code, redirectUri }) {
      // deleting is using: of two exchanges of one code at once, one gets the row, the other nothing
      const [used] = await db
        .delete(simulatedAccounting)
        .where(and(eq(simulatedAccounting.kind, "code"), eq(simulatedAccounting.key, code)))
        .returning({ data: simulatedAccounting.data });
      if (!used) throw new AccountingServiceError("The authorisation code is invalid or has already been used.", "invalid_grant");
      if (Date.parse(String(used.data.expiresAt)) <= Date.now()) throw new AccountingServiceError("The authorisation code has expired.", "invalid_grant");
      if (used.data.redirectUri !== redirectUri) throw new AccountingServiceError("The redirect_uri does not match the one the code was issued for.", "invalid_grant");
      return issueTokens(db, String(used.data.businessId));
    },
    async refresh(refreshToken) {
      const [used] = await db
        .delete(simulatedAccounting)
        .where(and(eq(simulatedAccounting.kind, "token"), eq(simulatedAccounting.key, `refresh:${refreshToken}`)))
        .returning({ data: simulatedAccounting.data });
      if (!used) throw new AccountingServiceError("The refresh token is invalid.", "invalid_grant");
      return issueTokens(db, String(used.data.businessId));
    },
    async business(accessToken) {
      const businessId = await accessOf(db, accessToken);
      return { id: businessId, name: SIMULATED_BUSINESS.name };
    },
    async suppliers(accessToken, filter) {
      await accessOf(db, accessToken);
      await seedSuppliers(db);
      const where = [eq(simulatedAccounting.kind, "supplier")];
      if (filter.uids) where.push(inArray(simulatedAccounting.key, filter.uids.length ? filter.uids : [""]));
      else if (filter.query?.trim()) where.push(sql`${simulatedAccounting.data}->>'name' ilike ${`%${filter.query.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
      const rows = await db
        .select({ key: simulatedAccounting.key, data: simulatedAccounting.data })
        .from(simulatedAccounting)
        .where(and(...where))
        .orderBy(asc(sql`${simulatedAccounting.data}->>'name'`))
        .limit(filter.limit ?? 10);
      return rows.map(supplierOf);
    },
    async exportBill(accessToken, bill: PayableBill): Promise<ExportedBill> {
      await accessOf(db, accessToken);
      await seedSuppliers(db);
      const [supplier] = await db
        .select({ key: simulatedAccounting.key })
        .from(simulatedAccounting)
        .where(and(eq(simulatedAccounting.kind, "supplier"), eq(simulatedAccounting.key, bill.supplierUid)));
      if (!supplier) throw new AccountingServiceError(`No supplier has the uid ${bill.supplierUid}.`, "not_found");
      const { tax, total } = totalsOf(bill.lines);
      const uid = randomBytes(16).toString("hex");
      // a supplier's bill number is unique in the company file, as MYOB's: a second export is refused, never doubled
      const [recorded] = await db
        .insert(simulatedAccounting)
        .values({ kind: "bill", key: `${bill.supplierUid}:${bill.number}`, data: { uid, ...bill, total, tax } })
        .onConflictDoNothing()
        .returning({ id: simulatedAccounting.id });
      if (!recorded) throw new AccountingServiceError(`Bill ${bill.number} was already sent for this supplier.`, "conflict");
      return { uid, supplierUid: bill.supplierUid, number: bill.number, total, tax };
    },
    async customerByDisplayId(accessToken, displayId): Promise<CustomerCard | null> {
      await accessOf(db, accessToken);
      const [row] = await db
        .select({ key: simulatedAccounting.key, data: simulatedAccounting.data })
        .from(simulatedAccounting)
        .where(and(eq(simulatedAccounting.kind, "customer"), eq(simulatedAccounting.key, displayId)));
      return row ? cardOf(row) : null;
    },
    async createCustomer(accessToken, card): Promise<CustomerCard> {
      await accessOf(db, accessToken);
      const uid = randomBytes(16).toString("hex");
      // a Card ID is unique in the company file: of two creations at once, one is refused
      const [row] = await db
        .insert(simulatedAccounting)
        .values({ kind: "customer", key: card.displayId, data: { uid, name: card.name, billingAddress: card.billingAddress } })
        .onConflictDoNothing()
        .returning({ key: simulatedAccounting.key, data: simulatedAccounting.data });
      if (!row) throw new AccountingServiceError(`A customer card already has the Card ID ${card.displayId}.`, "conflict");
      return cardOf(row);
    },
    async exportSale(accessToken, customerUid, sale: SalesInvoice): Promise<ExportedSale> {
      await accessOf(db, accessToken);
      const [card] = await db
        .select({ key: simulatedAccounting.key })
        .from(simulatedAccounting)
        .where(and(eq(simulatedAccounting.kind, "customer"), sql`${simulatedAccounting.data}->>'uid' = ${customerUid}`));
      if (!card) throw new AccountingServiceError(`No customer card has the uid ${customerUid}.`, "not_found");
      const { tax, total } = totalsOf(sale.lines);
      const uid = randomBytes(16).toString("hex");
      // an invoice number is unique among the company file's sales: a second export is refused, never doubled
      const [recorded] = await db
        .insert(simulatedAccounting)
        .values({ kind: "sale", key: sale.number, data: { uid, customerUid, number: sale.number, date: sale.date, lines: sale.lines, total, tax } })
        .onConflictDoNothing()
        .returning({ id: simulatedAccounting.id });
      if (!recorded) throw new AccountingServiceError(`Sales invoice ${sale.number} was already sent.`, "conflict");
      return { uid, customerUid, number: sale.number, total, tax };
    },
  };
}
