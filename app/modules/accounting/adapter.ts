/**
 * The accounting software behind one interface (issue 17 item 8; DESIGN "Carriers" does the same
 * for carriers): the OAuth authorisation-code flow, the supplier list and bill export, customer
 * cards and sales invoice export (issue 19 item 6). The local
 * simulated service (simulated.server.ts) is the built-in implementation; a live MYOB adapter
 * (configured by MYOB_CLIENT_ID, MYOB_CLIENT_SECRET and MYOB_API_URL) would plug in here, and is
 * not built.
 */
import type { PostalAddress } from "../../../db/schema/tenancy";

export interface AccountingTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  businessId: string;
}

export interface AccountingBusiness {
  id: string;
  name: string;
}

export interface Supplier {
  uid: string;
  name: string;
  abn: string | null;
}

/** A payable invoice as a bill: amounts in dollars, each line's tax given (GST, or 0 for free lines). */
export interface PayableBill {
  supplierUid: string;
  number: string;
  /** YYYY-MM-DD */
  date: string;
  lines: Array<{ description: string; amount: number; tax: number }>;
}

export interface ExportedBill {
  uid: string;
  supplierUid: string;
  number: string;
  total: number;
  tax: number;
}

/** A customer's address on its card: the house postal address JSON. */
export type CardAddress = PostalAddress;

/** A customer card: MYOB matches cards by their Card ID (displayId), here the customer's code. */
export interface CustomerCard {
  uid: string;
  displayId: string;
  name: string;
  billingAddress: CardAddress | null;
}

/** A receivable (customer) invoice as a sale: amounts in dollars, each line's tax given (GST, or 0). */
export interface SalesInvoice {
  customer: Omit<CustomerCard, "uid">;
  number: string;
  /** YYYY-MM-DD */
  date: string;
  lines: Array<{ description: string; amount: number; tax: number }>;
}

export interface ExportedSale {
  uid: string;
  customerUid: string;
  number: string;
  total: number;
  tax: number;
}

/** What the adapter refuses (a bad code, an expired token, an unknown supplier): its message is shown. */
export class AccountingServiceError extends Error {
  constructor(
    message: string,
    readonly reason: "invalid_grant" | "invalid_token" | "not_found" | "conflict" | "invalid_request" = "invalid_request",
  ) {
    super(message);
    this.name = "AccountingServiceError";
  }
}

export interface AccountingAdapter {
  readonly provider: string;
  /** Where the browser goes to consent; it comes back to redirectUri with code and state (or error). */
  authorizeUrl(input: { state: string; redirectUri: string }): string;
  /** The code for tokens: single use, short-lived, bound to the redirect URI it was issued for. */
  exchangeCode(input: { code: string; redirectUri: string }): Promise<AccountingTokens>;
  refresh(refreshToken: string): Promise<AccountingTokens>;
  business(accessToken: string): Promise<AccountingBusiness>;
  /** Suppliers whose name contains `query` (case aside), by name; `uids` picks given ones instead. */
  suppliers(accessToken: string, filter: { query?: string; uids?: string[]; limit?: number }): Promise<Supplier[]>;
  exportBill(accessToken: string, bill: PayableBill): Promise<ExportedBill>;
  /** The customer card whose Card ID is `displayId`, or null. */
  customerByDisplayId(accessToken: string, displayId: string): Promise<CustomerCard | null>;
  /** A new customer card; a Card ID already on a card is refused (conflict). */
  createCustomer(accessToken: string, card: Omit<CustomerCard, "uid">): Promise<CustomerCard>;
  /** A sale to the card `customerUid`; an invoice number already sent is refused (conflict). */
  exportSale(accessToken: string, customerUid: string, sale: SalesInvoice): Promise<ExportedSale>;
}
