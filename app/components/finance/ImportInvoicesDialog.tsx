/**
 * The Import modal of /invoices_payable (spec 3 "Invoices payable"): a carrier invoice template
 * and one or more files. Built by the import work (issue 18 item 2); the page only places it.
 */
export interface ImportTemplateChoice {
  id: number;
  name: string;
  carrierName: string;
}

export function ImportInvoicesDialog(_props: { templates: ImportTemplateChoice[]; canImport: boolean }) {
  return null;
}
