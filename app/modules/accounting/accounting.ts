import { z } from "zod";

/** Spec 2 section 9 and spec 3: the accounting link's texts. */
export const MYOB_MESSAGES = {
  authenticated: "MYOB Authenticated successfully",
  failed: (message: string) => `Error occurred during authentication: ${message}`,
  saved: "Supplier mapping was saved.",
  notConnected: "MYOB is not authenticated yet: choose Authenticate first.",
  stateMismatch: "The authentication state did not match. Please start again.",
  badToken: "The form has expired. Please reload the page and try again.",
};

/** PUT /api/myob: carriers by code, each with its supplier's uid (null or "" unmaps it). */
export const mappingSchema = z.object({
  carriers: z
    .array(
      z.object({
        code: z.string({ error: "code is required" }).trim().min(1, "code is required").max(50),
        myob_uid: z.preprocess((v) => (v === "" ? null : v), z.string().trim().max(64, "myob_uid is at most 64 characters").nullable()),
      }),
      { error: "carriers must be a list of { code, myob_uid }" },
    )
    .max(500),
});

/** A bill's or a sale's number, date and lines (amounts in dollars, each line's tax given). */
const documentFields = (what: string) => ({
  number: z.string().trim().min(1, "number is required").max(30, "number is at most 30 characters"),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "date must be YYYY-MM-DD"),
  lines: z
    .array(
      z.object({
        description: z.string().trim().min(1, "description is required").max(255),
        amount: z.number().finite().min(-1_000_000).max(1_000_000),
        tax: z.number().finite().min(-100_000).max(100_000),
      }),
    )
    .min(1, `${what} needs at least one line`)
    .max(1000),
});

/** A payable invoice to export as a bill (the finance issues call exportPayableBill with it). */
export const payableBillSchema = z.object({
  supplierUid: z.string().trim().min(1, "supplierUid is required").max(64),
  ...documentFields("a bill"),
});

const addressLine = z.string().trim().max(255).optional();

/** A receivable invoice to export as a sale (exportSalesInvoice): its customer's card by Card ID (the customer's code). */
export const salesInvoiceSchema = z.object({
  customer: z.object({
    displayId: z.string().trim().min(1, "the customer's Card ID is required").max(15, "the customer's code is longer than the 15 characters of a MYOB Card ID"),
    name: z.string().trim().min(1, "the customer's name is required").max(255),
    billingAddress: z
      .object({
        name: addressLine,
        address_line_1: addressLine,
        address_line_2: addressLine,
        address_line_3: addressLine,
        address_line_4: addressLine,
        sublocality: addressLine,
        locality: addressLine,
        postcode: addressLine,
        region: addressLine,
        country: addressLine,
      })
      .nullable(),
  }),
  ...documentFields("a sales invoice"),
});

export interface MyobStatus {
  connected: boolean;
  business_name: string | null;
  connected_at: string | null;
  carriers: Array<{ id: number; code: string; name: string; myob_uid: string | null; supplier_name: string | null }>;
}
