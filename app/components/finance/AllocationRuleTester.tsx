import { useEffect, useState } from "react";

type Rule = { id: number; group: number; allocation_model: string; type: string; options: { from_matcher?: { field?: string; text?: string }; to_matcher?: { model?: string; field?: string } } };
type TestAnswer = { message?: string; errors?: Record<string, string[]> };

/**
 * The invoice detail modal's allocation rule groups (spec 3 "Invoice detail modal"): list the
 * rules that apply to this line's carrier and test each group against it with
 * POST /api/allocation_rules/test. Without JavaScript the list cannot load, so a button posting
 * intent=test to /allocation_rules (the same test) is offered instead. The tester sits inside the
 * line's form and forms cannot nest (a nested form breaks hydration and posts the outer form), so
 * that button belongs by its `form` attribute to AllocationRuleTestForm, placed outside it.
 */
export function AllocationRuleTester({ invoiceDetailId, carrierId }: { invoiceDetailId: number; carrierId: number | null }) {
  const [rules, setRules] = useState<Rule[] | null>(null);
  const [answers, setAnswers] = useState<Record<number, { ok: boolean; text: string }>>({});
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (carrierId == null) return;
    let live = true;
    void (async () => {
      try {
        const codes = await fetch("/api/allocation_rules", { headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } });
        if (!codes.ok) throw new Error("The allocation rules could not be read.");
        const all = ((await codes.json()) as { allocation_rules: Array<Rule & { carrier_id: number }> }).allocation_rules;
        if (live) setRules(all.filter((r) => r.carrier_id === carrierId));
      } catch (e) {
        if (live) setFailed(e instanceof Error ? e.message : "The allocation rules could not be read.");
      }
    })();
    return () => {
      live = false;
    };
  }, [carrierId]);

  async function test(group: number) {
    const res = await fetch("/api/allocation_rules/test", {
      method: "POST",
      headers: { "content-type": "application/json", Accept: "application/json", "X-Requested-With": "XMLHttpRequest" },
      body: JSON.stringify({ invoice_detail_id: invoiceDetailId, rule_id: group }),
    });
    const body = (await res.json().catch(() => ({}))) as TestAnswer;
    // the first error of the response is shown on the rule (spec 3 section 8)
    const text = res.ok ? (body.message ?? "") : (Object.values(body.errors ?? {})[0]?.[0] ?? "The test failed.");
    setAnswers((a) => ({ ...a, [group]: { ok: res.ok, text } }));
  }

  if (carrierId == null) return <p className="text-sm">This line has no carrier, so no allocation rules apply.</p>;
  if (failed) return <p role="alert">{failed}</p>;
  if (!rules) {
    return (
      <div className="flex items-end gap-2">
        <button type="submit" form={testFormId(invoiceDetailId)} name="intent" value="test" className="btn">
          Test allocation rules
        </button>
      </div>
    );
  }
  const groups = [...new Set(rules.map((r) => r.group))];
  if (!groups.length) return <p className="text-sm">There are no allocation rules for this carrier.</p>;
  return (
    <ul className="space-y-2" aria-label="Allocation rule groups">
      {groups.map((g) => {
        const of = rules.filter((r) => r.group === g);
        return (
          <li key={g} className="rounded border p-2">
            <p className="text-sm">
              {of[0]!.allocation_model}: {of.map((r) => `${r.type} ${r.options.from_matcher?.field ?? ""}${r.options.from_matcher?.text ? ` '${r.options.from_matcher.text}'` : ""}${r.options.to_matcher ? ` → ${r.options.to_matcher.model} ${r.options.to_matcher.field}` : ""}`).join(", then ")}
            </p>
            <button type="button" className="btn mt-1" onClick={() => void test(g)}>
              Test
            </button>
            {answers[g] ? (
              <p role={answers[g].ok ? "status" : "alert"} className="mt-1 text-sm">
                {answers[g].text}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

const testFormId = (invoiceDetailId: number) => `allocation-test-${invoiceDetailId}`;

/** The form the tester's no-JavaScript button submits: render it outside any other form. */
export function AllocationRuleTestForm({ invoiceDetailId }: { invoiceDetailId: number }) {
  return (
    <form id={testFormId(invoiceDetailId)} method="post" action="/allocation_rules" aria-label="Test the allocation rules" hidden>
      <input type="hidden" name="invoice_detail_id" value={invoiceDetailId} />
    </form>
  );
}
