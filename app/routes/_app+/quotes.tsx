import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { requireUser } from "~/modules/auth/guard.server";
import { reinstateConsignments } from "~/modules/consignments/delete.server";
import { listQuotes } from "~/modules/consignments/quotes.server";
import { formatDate, formatVolume, formatWeight, quoteReference } from "~/modules/consignments/rules";
import { updateUserOptions } from "~/modules/users/options.server";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Quotes · FreightDesk" }];

/** The new-quote choices, stored as the quote_button preference (spec 1 section 2). */
const NEW_QUOTE = [
  { value: "new_quote", label: "New Quote", to: "/quote" },
  { value: "return_quote", label: "Return quote", to: "/return_quote" },
  { value: "thirdparty_quote", label: "Third-party quote", to: "/thirdparty_quote" },
  { value: "quick_quote", label: "Quick quote", to: "/quick_quote" },
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const deleted = Number(new URL(request.url).searchParams.get("deleted"));
  return {
    quotes: await listQuotes(context.db, user),
    quoteButton: NEW_QUOTE.find((q) => q.value === user.options.quote_button)?.value ?? "new_quote",
    deleted: Number.isInteger(deleted) && deleted > 0 ? deleted : null,
  };
}

/** Choosing a new-quote kind remembers it and opens it; Undo reinstates a deleted quote. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const form = await readPageForm(request);
  if (form.get("intent") === "reinstate") {
    await reinstateConsignments(context.db, user, { ids: [Number(form.get("id"))] });
    return { alert: { type: "success", message: "The quote has been reinstated." } as Alert };
  }
  const choice = NEW_QUOTE.find((q) => q.value === form.get("quote_button"));
  if (!choice) return { alert: { type: "error", message: "Could not update quote preference" } as Alert };
  try {
    await updateUserOptions(context.db, user, user.id, { options: { quote_button: choice.value } });
  } catch {
    return { alert: { type: "error", message: "Could not update quote preference" } as Alert };
  }
  throw redirect(choice.to);
}

const money = (n: number | null, poa: boolean) => (poa ? "POA" : n == null ? "" : `$${n.toFixed(2)}`);

export default function Quotes() {
  const { quotes, quoteButton, deleted } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const preferred = NEW_QUOTE.find((q) => q.value === quoteButton)!;
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Quotes</h1>
        <div className="flex">
          <Link to={preferred.to} className="btn-primary rounded-r-none">
            {preferred.label}
          </Link>
          <details className="relative" data-menu>
            <summary className="btn-primary cursor-pointer list-none rounded-l-none border-l border-sky-900" aria-label="New quote options">
              ▾
            </summary>
            <Form method="post" className="absolute right-0 z-20 mt-1 min-w-48 rounded border border-slate-200 bg-white py-1 shadow-lg">
              {NEW_QUOTE.map((q) => (
                <button key={q.value} type="submit" name="quote_button" value={q.value} className="block w-full px-3 py-1 text-left text-sm hover:bg-slate-100" aria-checked={q.value === quoteButton} role="menuitemradio">
                  <span className="inline-block w-4">{q.value === quoteButton ? "✓" : ""}</span>
                  {q.label}
                </button>
              ))}
            </Form>
          </details>
        </div>
      </div>
      {outcome?.alert ? <Alerts alerts={[outcome.alert]} /> : null}
      {deleted && !outcome ? (
        <div role="status" className="flex items-center justify-between rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          <span>Quote {quoteReference(deleted)} has been deleted.</span>
          <Form method="post">
            <input type="hidden" name="id" value={deleted} />
            <button type="submit" name="intent" value="reinstate" className="btn">
              Undo
            </button>
          </Form>
        </div>
      ) : null}
      <div className="card overflow-x-auto p-0">
        {quotes.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">There are no quotes to display.</p>
        ) : (
          <table className="w-full text-sm" data-testid="quotes">
            <thead className="border-b border-slate-200 bg-slate-50 text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="px-3 py-2">Quote</th>
                <th className="px-3 py-2">Receiver</th>
                <th className="px-3 py-2">Carrier service</th>
                <th className="px-3 py-2 text-right">Price</th>
                <th className="px-3 py-2 text-right">Weight</th>
                <th className="px-3 py-2 text-right">Volume</th>
                <th className="px-3 py-2">Date</th>
                <th className="px-3 py-2">Reference</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {quotes.map((q) => (
                <tr key={q.id}>
                  <td className="px-3 py-2">
                    <Link className="text-sky-700 underline" to={`/quote/${q.id}`}>
                      {q.quote_number}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{q.receiver}</td>
                  <td className="px-3 py-2">{q.carrier_service}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{money(q.price, q.poa)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatWeight(q.weight, q.som)}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{formatVolume(q.volume, q.som)}</td>
                  <td className="px-3 py-2 tabular-nums">{formatDate(q.date, q.country)}</td>
                  <td className="px-3 py-2">{q.reference}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
