import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { CsvFileInput } from "~/components/CsvFileInput";
import { AllocationRuleForm, type RuleView } from "~/components/finance/AllocationRuleForm";
import { importMapping } from "~/modules/allocation/mapping.server";
import { deleteRule, saveRule, testRules } from "~/modules/allocation/rules.server";
import { ALLOCATION_MODELS, MESSAGES } from "~/modules/allocation/schemas";
import { ruleBodyFromForm, rulesScreen } from "~/modules/allocation/screen.server";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { readCsvUpload } from "~/utils/csv.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Allocation rules · FreightDesk" }];

const NOTICES: Record<string, string> = { created: MESSAGES.created, saved: MESSAGES.saved, deleted: MESSAGES.deleted, imported: MESSAGES.imported };

/** /allocation_rules?carrier=CODE: the carrier's rules grouped by model; `notice` says what the last post did. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const url = new URL(request.url);
  const screen = await rulesScreen(context.db, user, url.searchParams.get("carrier"));
  return { ...screen, notice: NOTICES[url.searchParams.get("notice") ?? ""] ?? null };
}

type Result = { intent: string; ruleId: number | null; message: string; ok: boolean; errors: FieldErrors };

/** intent=save, delete or test (a plain form), or a multipart mapping import; access errors go to the boundary. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const url = new URL(request.url);
  const carrier = url.searchParams.get("carrier") ?? "";
  const back = (notice: string, anchor = "") => redirect(`/allocation_rules?carrier=${encodeURIComponent(carrier)}&notice=${notice}${anchor}`);
  if ((request.headers.get("content-type") ?? "").includes("multipart/form-data")) {
    try {
      const { text } = await readCsvUpload(request);
      await importMapping(context.db, user, text);
      return back("imported");
    } catch (e) {
      return failed(e, { intent: "import", ruleId: null }, MESSAGES.importFailed);
    }
  }
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  const ruleId = Number(form.get("rule_id")) || null;
  try {
    if (intent === "test") {
      const r = await testRules(context.db, user, { invoice_detail_id: form.get("invoice_detail_id"), rule_id: ruleId });
      return data<Result>({ intent, ruleId, message: r.message, ok: true, errors: {} });
    }
    if (intent === "delete" && ruleId) {
      await deleteRule(context.db, user, ruleId);
      return back("deleted");
    }
    if (intent === "save") {
      const saved = await saveRule(context.db, user, ruleId, ruleBodyFromForm(form, carrier));
      return back(ruleId ? "saved" : "created", `#rule-${saved.allocation_rule.id}`);
    }
    throw new AppError("bad_request", "Unknown action");
  } catch (e) {
    return failed(e, { intent, ruleId });
  }
}

function failed(e: unknown, at: { intent: string; ruleId: number | null }, message?: string) {
  throwIfAccessError(e);
  if (!(e instanceof AppError)) throw e;
  // the first error of the response is what the rule shows (spec 3 section 8)
  const first = Object.values(e.fieldErrors)[0]?.[0] ?? e.message;
  return data<Result>({ ...at, message: message ?? first, ok: false, errors: e.fieldErrors }, { status: e.status });
}

export default function AllocationRules() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const rules = d.rules as Array<RuleView & { group: number; carrier_code: string }>;
  const choices = { customers: d.customers, sites: d.sites, services: d.services, rules };
  const errorsFor = (id: number | null) => (result && !result.ok && result.intent === "save" && result.ruleId === id ? result.errors : result && !result.ok && result.intent === "delete" && result.ruleId === id ? result.errors : {});
  const testResult = (head: number) => (result?.intent === "test" && result.ruleId === head ? result : null);
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Allocation rules</h1>
      {d.notice ? <Alerts alerts={[{ type: "success", message: d.notice }]} /> : null}
      {result?.intent === "test" && result.ruleId === null ? <Alerts alerts={[{ type: result.ok ? "success" : "error", message: result.message }]} /> : null}
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label="Choose a carrier">
        <div>
          <label htmlFor="carrier" className="label">
            Carrier
          </label>
          <select id="carrier" name="carrier" defaultValue={d.carrier?.code ?? ""} className="input">
            <option value="">Choose a carrier</option>
            {d.carriers.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name} ({c.code})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Show rules
        </button>
      </Form>
      {d.carrier ? (
        <>
          <section aria-labelledby="mapping-heading" className="card space-y-2">
            <h2 id="mapping-heading" className="font-medium">
              Mapping file
            </h2>
            <a className="btn" href={`/api/allocation_rules/sapphire_mapping_export?carrier_code=${encodeURIComponent(d.carrier.code)}`} download>
              Export mapping (csv)
            </a>
            {d.canEdit ? (
              <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-2" aria-label="Import mapping">
                <div>
                  <label htmlFor="mapping-file" className="label">
                    Mapping file (csv: carrier_code, customer_code, allocation_model, field, text, to_code)
                  </label>
                  <CsvFileInput id="mapping-file" />
                </div>
                <button type="submit" className="btn" disabled={busy}>
                  Import mapping
                </button>
              </Form>
            ) : null}
            {result?.intent === "import" ? <Alerts alerts={[{ type: "error", message: result.message }, ...(result.errors.file ?? []).slice(0, 10).map((m) => ({ type: "error" as const, message: m }))]} /> : null}
          </section>
          {ALLOCATION_MODELS.map((model) => {
            const ofModel = rules.filter((r) => r.allocation_model === model);
            const groups = [...new Set(ofModel.map((r) => r.group))];
            return (
              <details key={model} className="card" open={ofModel.length > 0}>
                <summary className="cursor-pointer font-medium">
                  {model} ({groups.length} group{groups.length === 1 ? "" : "s"})
                </summary>
                <div className="mt-2 space-y-4">
                  {groups.map((head) => (
                    <section key={head} aria-label={`Group of rule ${head}`} className="space-y-2 border-l-4 border-slate-200 pl-3">
                      {chain(head, ofModel).map((r) => (
                        <AllocationRuleForm key={r.id} rule={r} choices={choices} errors={errorsFor(r.id)} canEdit={d.canEdit} />
                      ))}
                      <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={`Test group of rule ${head}`}>
                        <input type="hidden" name="rule_id" value={head} />
                        <div>
                          <label htmlFor={`test-${head}`} className="label">
                            Invoice line id
                          </label>
                          <input id={`test-${head}`} name="invoice_detail_id" inputMode="numeric" className="input w-32" required />
                        </div>
                        <button type="submit" name="intent" value="test" className="btn">
                          Test
                        </button>
                      </Form>
                      {testResult(head) ? <Alerts alerts={[{ type: testResult(head)!.ok ? "success" : "error", message: testResult(head)!.message }]} /> : null}
                    </section>
                  ))}
                </div>
              </details>
            );
          })}
          {d.canEdit ? (
            <section aria-labelledby="new-heading" className="space-y-2">
              <h2 id="new-heading" className="font-medium">
                Add a rule
              </h2>
              <AllocationRuleForm rule={null} choices={choices} errors={errorsFor(null)} canEdit />
            </section>
          ) : null}
        </>
      ) : (
        <p>Choose a carrier to see its allocation rules.</p>
      )}
    </div>
  );
}

/** A group's rules in chain order. */
function chain<R extends { id: number; next_rule: number | null; group: number }>(head: number, rules: R[]): R[] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const out: R[] = [];
  for (let r = byId.get(head); r && !out.includes(r); r = r.next_rule == null ? undefined : byId.get(r.next_rule)) out.push(r);
  return out;
}
