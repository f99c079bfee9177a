/**
 * The invoice detail modal's allocation rule groups (spec 3 "Invoice detail modal"): list the
 * rules that apply to this line's carrier and test them against it. Built by the allocation work
 * (issue 18 item 5); the modal only places it.
 */
export function AllocationRuleTester(_props: { invoiceDetailId: number; carrierId: number | null }) {
  return null;
}
