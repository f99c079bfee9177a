import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { MoveButtons, OrderAnnouncement, useReorder } from "~/components/Reorder";
import { RuleForm } from "~/components/shipping-rules/RuleForm";
import { TestPanel } from "~/components/shipping-rules/TestPanel";
import { requireUser } from "~/modules/auth/guard.server";
import { rulesScreen, rulesScreenAction, type ScreenOutcome } from "~/modules/shipping-rules/screen.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Shipping Rules${d ? ` · ${d.customer.name}` : ""} · FreightDesk` }];

/** The customer's shipping rules in their order (staff any customer; its super despatchers their own). ?rule=new|{id} opens the form. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    const screen = await rulesScreen(context.db, user, pageId(params.customerId));
    const saved = new URL(request.url).searchParams.get("saved");
    const alerts: Alert[] = saved ? [{ type: "success", message: saved === "new" ? "New shipping rule saved." : "Shipping rule saved." }] : [];
    return { ...screen, alerts };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Save (new or changed), delete, the dragged order, Move up/down and Test, each answered on this page; a save goes back to the list. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const customerId = pageId(params.customerId);
  const outcome = await rulesScreenAction(context.db, user, customerId, request);
  if (outcome.saved) return redirect(`/customers/${customerId}/shipping_rules?saved=${outcome.alerts[0]?.message.startsWith("New") ? "new" : "1"}`);
  return data(outcome, { status: outcome.status });
}

export default function ShippingRules() {
  const { customer, rules, choices, siteCodes, alerts } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>() as ScreenOutcome | undefined;
  const busy = useNavigation().state !== "idle";
  const [params] = useSearchParams();
  // the form stays open after a refused save, wherever it was posted from
  const editing = params.get("rule") ?? (outcome?.errors ? "new" : null);
  const { order, announcement, rowProps, step } = useReorder(rules, (r) => r.name);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const base = `/customers/${customer.id}/shipping_rules`;
  const rule = editing && editing !== "new" ? (rules.find((r) => String(r.id) === editing) ?? null) : null;

  return (
    <div className="space-y-4" data-testid="shipping-rules" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Shipping Rules: {customer.name}</h1>
        <div className="flex gap-2">
          <Link to={`/customers/${customer.id}/index_item_types`} className="btn">
            Item Types
          </Link>
          <Link to={`${base}?rule=new`} className="btn-primary">
            New rule
          </Link>
        </div>
      </div>
      <Alerts alerts={outcome?.alerts ?? alerts} />
      <OrderAnnouncement text={announcement} />
      <p className="text-sm text-slate-600">
        The first rule that matches a consignment chooses its service; a rule whose service has no price on the lane passes to the next. Drag a row, or use Move up and Move down (Alt+Arrow keys on a focused row), to change the order.
      </p>
      <table className="w-full text-sm" aria-label="Shipping rules">
        <thead>
          <tr className="text-left">
            <th scope="col">#</th>
            <th scope="col">Name</th>
            <th scope="col">What it does</th>
            <th scope="col">Active</th>
            <th scope="col">Order</th>
            <th scope="col">
              <span className="sr-only">Delete</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {order.map((r, i) => (
            <tr key={r.id} data-testid="shipping-rule-row" {...rowProps(i, true)} className="border-t data-[dragging=true]:opacity-50">
              <td>{i + 1}</td>
              <td>
                <Link to={`${base}?rule=${r.id}`} className="text-sky-700 underline">
                  {r.name}
                </Link>
              </td>
              <td>{r.summary}</td>
              <td>{r.active ? "Yes" : "No"}</td>
              <td>
                <MoveButtons id={r.id} index={i} count={order.length} label={r.name} step={step} />
              </td>
              <td>
                <Form method="post" onSubmit={(e) => (window.confirm(`Delete the rule ${r.name}?`) ? undefined : e.preventDefault())}>
                  <input type="hidden" name="id" value={r.id} />
                  <button type="submit" name="intent" value="delete" className="btn px-2 py-0" aria-label={`Delete ${r.name}`} disabled={busy}>
                    Delete
                  </button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!order.length && <p className="text-sm text-slate-600">There are no shipping rules yet: every consignment gets the cheapest service.</p>}
      {editing && (editing === "new" || rule) && (
        <RuleForm key={editing} rule={rule} choices={choices} errors={outcome?.errors ?? {}} typed={outcome?.typed} cancelTo={base} busy={busy} />
      )}
      <TestPanel sites={siteCodes} itemTypes={choices.itemTypes} result={outcome?.test} errors={outcome?.testErrors ?? {}} busy={busy} />
    </div>
  );
}
