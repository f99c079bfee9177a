/**
 * The provider's link to its accounting software (issue 17 item 8, spec 2 "/myob"): authenticate
 * by the OAuth authorisation-code flow, map each carrier to a supplier, export payable invoices
 * as bills and receivable invoices as sales (to the customer's card, made on first use). Admins (not customer service) and super admins manage it.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { accountingConnections, carriers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { homeButtons } from "../auth/roles";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { AccountingServiceError, type AccountingAdapter, type CustomerCard, type ExportedBill, type ExportedSale, type PayableBill, type SalesInvoice, type Supplier } from "./adapter";
import { MYOB_MESSAGES, mappingSchema, payableBillSchema, salesInvoiceSchema, type MyobStatus } from "./accounting";
import { simulatedAccountingAdapter } from "./simulated.server";

export const PROVIDER = "myob";
export const CALLBACK_PATH = "/users/auth/myob/callback";
/** The one redirect URI registered for this app at the accounting service: its callback at its own origin (APP_URL when set). */
export const registeredCallback = (origin: string) => `${origin}${CALLBACK_PATH}`;
/** How long a started authentication may take before its state no longer counts. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** Tokens this close to expiry are refreshed before use. */
const REFRESH_MARGIN_MS = 60 * 1000;

export const assertMyobUser = (user: CurrentUser) => authorize(user, homeButtons.myob);

/** The adapter in use: the simulated service (a live MYOB adapter would be chosen here by its settings). */
export const accountingAdapter = (db: DbOrTx): AccountingAdapter => simulatedAccountingAdapter(db);

/** An authentication that failed: its message goes after 'Error occurred during authentication: '. */
export class AuthenticationFailed extends Error {}

/** Starts authentication: a fresh state is remembered, and the browser goes to the service's consent page. */
export async function startAuthentication(db: DbOrTx, user: CurrentUser, origin: string): Promise<string> {
  assertMyobUser(user);
  const state = randomBytes(24).toString("base64url");
  // one row per provider: a second start replaces the state, so only the latest consent can come back
  await db
    .insert(accountingConnections)
    .values({ provider: PROVIDER, pendingState: state, updatedAt: new Date() })
    .onConflictDoUpdate({ target: accountingConnections.provider, set: { pendingState: state, updatedAt: new Date() } });
  return accountingAdapter(db).authorizeUrl({ state, redirectUri: registeredCallback(origin) });
}

/**
 * The callback: the state must be the one this app started (and is used up by the check), then
 * the code is exchanged for tokens and the business's name is fetched and stored. Throws
 * AuthenticationFailed with what to tell the user.
 */
export async function completeAuthentication(db: DbOrTx, user: CurrentUser, params: URLSearchParams, origin: string): Promise<{ businessName: string }> {
  assertMyobUser(user);
  const state = params.get("state") ?? "";
  // Used up in the same statement that checks it: a replayed callback (or two at once) finds no
  // pending state, so one consent connects at most once.
  const [pending] = state
    ? await db
        .update(accountingConnections)
        .set({ pendingState: null })
        .where(and(eq(accountingConnections.provider, PROVIDER), eq(accountingConnections.pendingState, state), gt(accountingConnections.updatedAt, new Date(Date.now() - STATE_TTL_MS))))
        .returning({ id: accountingConnections.id })
    : [];
  if (!pending) throw new AuthenticationFailed(MYOB_MESSAGES.stateMismatch);
  const error = params.get("error");
  if (error) throw new AuthenticationFailed(params.get("error_description") || error);
  const code = params.get("code");
  if (!code) throw new AuthenticationFailed("The service sent no authorisation code.");
  const adapter = accountingAdapter(db);
  try {
    const tokens = await adapter.exchangeCode({ code, redirectUri: registeredCallback(origin) });
    const business = await adapter.business(tokens.accessToken);
    await db
      .update(accountingConnections)
      .set({
        businessId: business.id,
        businessName: business.name,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: tokens.expiresAt,
        connectedBy: user.id,
        connectedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(accountingConnections.id, pending.id));
    return { businessName: business.name };
  } catch (e) {
    if (e instanceof AccountingServiceError) throw new AuthenticationFailed(e.message);
    throw e;
  }
}

/** The stored connection with a usable access token (refreshed when near expiry), or a 409 saying to authenticate. */
async function connected(db: DbOrTx): Promise<{ accessToken: string; adapter: AccountingAdapter }> {
  const adapter = accountingAdapter(db);
  const [conn] = await db.select().from(accountingConnections).where(eq(accountingConnections.provider, PROVIDER));
  if (!conn?.accessToken || !conn.refreshToken) throw new AppError("conflict", MYOB_MESSAGES.notConnected);
  if (conn.expiresAt && conn.expiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return { accessToken: conn.accessToken, adapter };
  try {
    const tokens = await adapter.refresh(conn.refreshToken);
    // only if no one refreshed in between (a refresh token is single use): else theirs stands
    const [kept] = await db
      .update(accountingConnections)
      .set({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt, updatedAt: new Date() })
      .where(and(eq(accountingConnections.id, conn.id), eq(accountingConnections.refreshToken, conn.refreshToken)))
      .returning({ id: accountingConnections.id });
    if (kept) return { accessToken: tokens.accessToken, adapter };
    const [now] = await db.select({ accessToken: accountingConnections.accessToken }).from(accountingConnections).where(eq(accountingConnections.id, conn.id));
    return { accessToken: now!.accessToken!, adapter };
  } catch (e) {
    if (e instanceof AccountingServiceError) throw new AppError("conflict", MYOB_MESSAGES.notConnected);
    throw e;
  }
}

/** A 409 ('MYOB is not authenticated yet: ...') unless the link is authenticated: for a batch to refuse once, up front. */
export async function requireConnection(db: DbOrTx): Promise<void> {
  await connected(db);
}

const serviceError = (e: unknown): never => {
  if (!(e instanceof AccountingServiceError)) throw e;
  const code = e.reason === "not_found" ? "not_found" : e.reason === "conflict" ? "conflict" : e.reason === "invalid_token" || e.reason === "invalid_grant" ? "conflict" : "invalid";
  throw new AppError(code, e.message);
};

/** GET /api/myob: the connection and every carrier with its supplier. */
export async function myobStatus(db: DbOrTx, user: CurrentUser): Promise<MyobStatus> {
  assertMyobUser(user);
  const [conn] = await db.select().from(accountingConnections).where(eq(accountingConnections.provider, PROVIDER));
  const rows = await db.select({ id: carriers.id, code: carriers.code, name: carriers.name, myobUid: carriers.myobUid, options: carriers.options }).from(carriers).orderBy(asc(carriers.name));
  return {
    connected: Boolean(conn?.accessToken),
    business_name: conn?.accessToken ? conn.businessName : null,
    connected_at: conn?.connectedAt ? conn.connectedAt.toISOString() : null,
    carriers: rows.map((c) => ({ id: c.id, code: c.code, name: c.name, myob_uid: c.myobUid, supplier_name: c.myobUid ? ((c.options.myob_supplier_name as string | undefined) ?? null) : null })),
  };
}

/** GET /api/myob/suppliers?query=: the typeahead over the service's supplier list. */
export async function searchSuppliers(db: DbOrTx, user: CurrentUser, query: string): Promise<Supplier[]> {
  assertMyobUser(user);
  const { accessToken, adapter } = await connected(db);
  return adapter.suppliers(accessToken, { query, limit: 10 }).catch(serviceError);
}

/**
 * PUT /api/myob { carriers: [{ code, myob_uid }] }: each carrier's supplier (the supplier must be
 * in the service's list; null unmaps). All or nothing: an unknown carrier or supplier changes none.
 */
export async function saveMapping(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<MyobStatus> {
  assertMyobUser(user);
  const input = parseOrThrow(mappingSchema, raw);
  const uids = [...new Set(input.carriers.map((c) => c.myob_uid).filter((u): u is string => Boolean(u)))];
  const suppliers = new Map<string, Supplier>();
  if (uids.length) {
    const { accessToken, adapter } = await connected(db);
    for (const s of await adapter.suppliers(accessToken, { uids, limit: uids.length }).catch(serviceError)) suppliers.set(s.uid, s);
  }
  const errors: Record<string, string[]> = {};
  input.carriers.forEach((c, i) => {
    if (c.myob_uid && !suppliers.has(c.myob_uid)) errors[`carriers.${i}.myob_uid`] = [`No MYOB supplier has the uid ${c.myob_uid}`];
  });
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  // one transaction: a mapping of several carriers lands whole, or (an unknown code) not at all
  await db.transaction(async (tx) => {
    for (const [i, c] of input.carriers.entries()) {
      const supplier = c.myob_uid ? suppliers.get(c.myob_uid)! : null;
      const updated = await tx
        .update(carriers)
        .set({ myobUid: supplier?.uid ?? null, options: sql`jsonb_set(${carriers.options}, '{myob_supplier_name}', ${JSON.stringify(supplier?.name ?? null)}::jsonb)` })
        .where(eq(sql`lower(${carriers.code})`, c.code.toLowerCase()))
        .returning({ id: carriers.id });
      if (!updated.length) throw new AppError("not_found", `Carrier ${c.code} not found`, { [`carriers.${i}.code`]: [`Carrier ${c.code} not found`] });
    }
  });
  return myobStatus(db, user);
}

/**
 * Sends a payable invoice to the accounting software as a bill (for the finance issues). Needs an
 * authenticated connection (409 without one); a bill number already sent for that supplier is a 409.
 */
export async function exportPayableBill(db: DbOrTx, bill: PayableBill): Promise<ExportedBill> {
  const input = parseOrThrow(payableBillSchema, bill);
  const { accessToken, adapter } = await connected(db);
  return adapter.exportBill(accessToken, input).catch(serviceError);
}

/**
 * Sends a receivable invoice to the accounting software as a sale (issue 19 item 6), to the card
 * whose Card ID is the customer's code, made first if there is none. Needs an authenticated
 * connection (409 without one); an invoice number already sent is a 409.
 */
export async function exportSalesInvoice(db: DbOrTx, sale: SalesInvoice): Promise<ExportedSale & { cardCreated: boolean }> {
  const input = parseOrThrow(salesInvoiceSchema, sale);
  const { accessToken, adapter } = await connected(db);
  let card: CustomerCard | null = await adapter.customerByDisplayId(accessToken, input.customer.displayId).catch(serviceError);
  const cardCreated = !card;
  if (!card) {
    // two exports for a new customer at once: the service keeps one card per Card ID and refuses
    // the other creation, which then uses the card that won
    card = await adapter.createCustomer(accessToken, input.customer).catch(async (e: unknown) => {
      if (e instanceof AccountingServiceError && e.reason === "conflict") return adapter.customerByDisplayId(accessToken, input.customer.displayId).catch(serviceError);
      return serviceError(e);
    });
    if (!card) throw new AppError("conflict", `The customer card ${input.customer.displayId} could not be found or made.`);
  }
  const done = await adapter.exportSale(accessToken, card.uid, input).catch(serviceError);
  return { ...done, cardCreated };
}

/**
 * The screen's form: per carrier the picked supplier's uid, or (typed without picking, or without
 * JavaScript) its name, matched exactly (case aside) in the service's list; both empty unmaps.
 */
export async function saveMappingForm(db: DbOrTx, user: CurrentUser, rows: Array<{ code: string; uid: string; name: string }>): Promise<MyobStatus> {
  assertMyobUser(user);
  const named = rows.filter((r) => !r.uid && r.name.trim());
  const errors: Record<string, string[]> = {};
  const resolved = new Map<string, string>();
  if (named.length) {
    const { accessToken, adapter } = await connected(db);
    for (const r of named) {
      const found = await adapter.suppliers(accessToken, { query: r.name, limit: 50 }).catch(serviceError);
      const exact = found.find((s) => s.name.toLowerCase() === r.name.trim().toLowerCase());
      if (exact) resolved.set(r.code, exact.uid);
      else errors[`supplier_${r.code}`] = [`No MYOB supplier is named ${r.name.trim()}`];
    }
  }
  if (Object.keys(errors).length) throw new AppError("invalid", "The mapping was not saved: please correct the suppliers marked.", errors);
  return saveMapping(db, user, { carriers: rows.map((r) => ({ code: r.code, myob_uid: r.uid || resolved.get(r.code) || null })) });
}
