import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { FieldError, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { Typeahead } from "~/components/Typeahead";
import { requireStaff } from "~/modules/auth/guard.server";
import { AUTHENTICITY_FIELD } from "~/modules/auth/authenticity";
import { authenticityToken } from "~/modules/auth/authenticity.server";
import { homeButtons } from "~/modules/auth/roles";
import type { Supplier } from "~/modules/accounting/adapter";
import { MYOB_MESSAGES } from "~/modules/accounting/accounting";
import { myobStatus, saveMappingForm } from "~/modules/accounting/connection.server";
import { clearOutcomeCookie, readOutcome } from "~/modules/accounting/outcome.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { formErrorData } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "MYOB · FreightDesk" }];

async function requireMyob(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.myob(signed.user)) throw redirect("/");
  return signed;
}

/** /myob: the connection, its outcome once after authenticating, and each carrier's supplier. `?saved=1`: the mapping was saved. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, token } = await requireMyob(context, request);
  const outcome: Alert | null = readOutcome(request);
  const alerts: Alert[] = new URL(request.url).searchParams.has("saved") ? [{ type: "success", message: MYOB_MESSAGES.saved }] : [];
  const body = { status: await myobStatus(context.db, user), outcome, alerts, authenticityToken: authenticityToken(token ?? "") };
  return outcome ? data(body, { headers: { "Set-Cookie": clearOutcomeCookie } }) : body;
}

/** Save: per carrier `uid_{code}` (picked) and `supplier_{code}` (typed). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireMyob(context, request);
  const form = await readPageForm(request);
  const codes = form.getAll("code").map(String);
  const rows = codes.map((code) => ({ code, uid: String(form.get(`uid_${code}`) ?? ""), name: String(form.get(`supplier_${code}`) ?? "") }));
  const values = Object.fromEntries(rows.map((r) => [r.code, { uid: r.uid, name: r.name }]));
  try {
    await saveMappingForm(context.db, user, rows);
    return redirect("/myob?saved=1");
  } catch (e) {
    return formErrorData(e, "The mapping was not saved: please correct the suppliers marked.", values);
  }
}

async function searchSuppliers(query: string, signal: AbortSignal): Promise<Supplier[]> {
  const res = await fetch(`/api/myob/suppliers?query=${encodeURIComponent(query)}`, { signal, headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } });
  if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { errors?: { base?: string[] } } | null)?.errors?.base?.[0] ?? "The supplier list could not be read.");
  return ((await res.json()) as { suppliers: Supplier[] }).suppliers;
}

function SupplierField({ code, carrierName, initial, errors }: { code: string; carrierName: string; initial: { uid: string; name: string }; errors: FieldErrors }) {
  const [name, setName] = useState(initial.name);
  const [uid, setUid] = useState(initial.uid);
  const field = `supplier_${code}`;
  return (
    <div>
      <input type="hidden" name="code" value={code} />
      <input type="hidden" name={`uid_${code}`} value={uid} />
      <Typeahead<Supplier>
        id={field}
        name={field}
        label={`Supplier for ${carrierName}`}
        value={name}
        onChange={(text) => {
          setName(text);
          setUid(""); // typed, not picked: the server matches the name
        }}
        search={searchSuppliers}
        failureText={(e) => (e instanceof Error ? e.message : "The supplier list could not be read.")}
        render={(s) => (
          <span>
            {s.name}
            {s.abn ? <span className="ml-2 text-xs text-slate-500">ABN {s.abn}</span> : null}
          </span>
        )}
        onPick={(s) => {
          setName(s.name);
          setUid(s.uid);
        }}
        placeholder="Type 3 letters of a supplier"
        {...fieldAria(errors, field)}
      />
      <FieldError id={`${field}-error`} errors={errors[field]} />
    </div>
  );
}

export default function Myob() {
  const { status, outcome, alerts, authenticityToken: token } = useLoaderData<typeof loader>();
  // the outcome is read once (its cookie is then cleared): a revalidation of this same visit must not take it away
  const location = useLocation();
  const kept = useRef<{ key: string; alert: Alert | null }>({ key: location.key, alert: outcome });
  if (kept.current.key !== location.key) kept.current = { key: location.key, alert: outcome };
  else if (outcome) kept.current.alert = outcome;
  const shown = kept.current.alert ? [kept.current.alert, ...alerts] : alerts;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const formRef = useFocusFirstInvalid(result?.errors);
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">MYOB</h1>
      <Alerts alerts={result?.message ? [{ type: "error", message: result.message }] : shown} />
      <section className="card space-y-2" aria-labelledby="myob-connection">
        <h2 id="myob-connection" className="font-semibold">
          Connection
        </h2>
        <p className="text-sm" data-testid="myob-business">
          {status.connected ? (
            <>
              Business name: <strong>{status.business_name}</strong>
            </>
          ) : (
            "Not authenticated."
          )}
        </p>
        {/* a full page post: the browser leaves for the accounting service's consent page */}
        <form method="post" action="/users/auth/myob">
          <input type="hidden" name={AUTHENTICITY_FIELD} value={token} />
          <button type="submit" className="btn-primary">
            Authenticate
          </button>
        </form>
      </section>
      <Form ref={formRef} method="post" className="card space-y-3" aria-labelledby="myob-suppliers">
        <h2 id="myob-suppliers" className="font-semibold">
          Carrier suppliers
        </h2>
        {!status.connected ? <p className="text-sm text-slate-600">{MYOB_MESSAGES.notConnected}</p> : null}
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Carrier</th>
              <th scope="col">MYOB supplier</th>
            </tr>
          </thead>
          <tbody>
            {status.carriers.map((c) => {
              const typed = (result?.values as Record<string, { uid: string; name: string }> | undefined)?.[c.code];
              return (
                <tr key={c.id} data-testid={`myob-carrier-${c.code}`}>
                  <td className="py-1 pr-2 align-top">
                    {c.name} <span className="text-xs text-slate-500">({c.code})</span>
                  </td>
                  <td className="py-1">
                    <SupplierField code={c.code} carrierName={c.name} initial={typed ?? { uid: c.myob_uid ?? "", name: c.supplier_name ?? "" }} errors={errors} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <button type="submit" className="btn-primary" disabled={busy || !status.connected}>
          Save
        </button>
      </Form>
    </div>
  );
}
