import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { AccountingServiceError } from "~/modules/accounting/adapter";
import { SIMULATED_BUSINESS, SIMULATED_CLIENT_ID, simulatedConsent } from "~/modules/accounting/simulated.server";
import { registeredCallback } from "~/modules/accounting/connection.server";
import { linkBase, readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Simulated MYOB · Allow access" }];

/**
 * The simulated accounting service's consent page (issue 17 item 8): what a real MYOB shows after
 * Authenticate. It checks the request as an OAuth server would, names the business, and sends the
 * browser back to the app's callback with a code (Allow) or access_denied (Deny), and the state.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  if (!homeButtons.myob(user)) throw redirect("/");
  try {
    const { state, redirectUri } = simulatedConsent.check(new URL(request.url).searchParams, registeredCallback(linkBase(request)));
    return { ok: true as const, business: SIMULATED_BUSINESS.name, state, redirectUri, clientId: SIMULATED_CLIENT_ID, email: user.email };
  } catch (e) {
    if (!(e instanceof AccountingServiceError)) throw e;
    return data({ ok: false as const, message: e.message }, { status: 400 });
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  if (!homeButtons.myob(user)) throw redirect("/");
  const form = await readPageForm(request);
  const params = new URLSearchParams({
    client_id: String(form.get("client_id") ?? ""),
    response_type: "code",
    redirect_uri: String(form.get("redirect_uri") ?? ""),
    state: String(form.get("state") ?? ""),
  });
  try {
    const { state, redirectUri } = simulatedConsent.check(params, registeredCallback(linkBase(request)));
    return redirect(await simulatedConsent.decide(context.db, { allow: form.get("decision") === "allow", state, redirectUri }));
  } catch (e) {
    if (!(e instanceof AccountingServiceError)) throw e;
    return data({ ok: false as const, message: e.message }, { status: 400 });
  }
}

export default function SimulatedConsent() {
  const page = useLoaderData<typeof loader>();
  return (
    <main className="flex min-h-full items-center justify-center bg-violet-50 p-4">
      <div className="w-full max-w-md rounded-lg border border-violet-200 bg-white p-6 shadow">
        <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-violet-700">Simulated MYOB (a local stand-in for the accounting service)</p>
        {page.ok ? (
          <>
            <h1 className="mb-3 text-xl font-semibold">Allow FreightDesk to access your business?</h1>
            <p className="mb-2 text-sm">
              Business: <strong data-testid="consent-business">{page.business}</strong>
            </p>
            <p className="mb-4 text-sm text-slate-700">
              Signed in as {page.email}. FreightDesk will read your supplier list and send bills to your company file.
            </p>
            <Form method="post" className="flex gap-2">
              <input type="hidden" name="client_id" value={page.clientId} />
              <input type="hidden" name="redirect_uri" value={page.redirectUri} />
              <input type="hidden" name="state" value={page.state} />
              <button type="submit" name="decision" value="allow" className="btn-primary">
                Allow
              </button>
              <button type="submit" name="decision" value="deny" className="btn">
                Deny
              </button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="mb-3 text-xl font-semibold">This authorisation request is not valid</h1>
            <p role="alert" className="text-sm text-red-700">
              {page.message}
            </p>
          </>
        )}
      </div>
    </main>
  );
}
