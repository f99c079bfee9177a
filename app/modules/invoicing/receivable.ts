/** The receivable screen's constants, shared with the browser bundle (a .server module is empty there). */
export const RECEIVABLE_MESSAGES = { noInvoiceable: "There are no invoiceable consignments to display." };
export const RECEIVABLE_STATES = ["all", "invoiced"] as const;
