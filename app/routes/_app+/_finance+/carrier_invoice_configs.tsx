import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { templatesScreen } from "~/modules/invoices/templates/editor.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Invoice templates · FreightDesk" }];

const NOTICES: Record<string, string> = { deleted: "Carrier invoice template deleted." };

/** /carrier_invoice_configs?carrier={id}: the carrier invoice templates, for finance users; New for invoice admins. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const q = new URL(request.url).searchParams;
  const carrierId = Number(q.get("carrier")) || undefined;
  try {
    return { ...(await templatesScreen(context.db, user, carrierId ?? null)), notice: NOTICES[q.get("notice") ?? ""] ?? null };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default function CarrierInvoiceConfigs() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Invoice templates</h1>
        {d.canEdit ? (
          <Link to="/carrier_invoice_config" className="btn-primary">
            New template
          </Link>
        ) : null}
      </div>
      {d.notice ? <Alerts alerts={[{ type: "success", message: d.notice }]} /> : null}
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label="Filter templates">
        <div>
          <label htmlFor="carrier" className="label">
            Carrier
          </label>
          <select id="carrier" name="carrier" defaultValue={d.carrierId ?? ""} className="input">
            <option value="">All carriers</option>
            {d.carriers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.code})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      {d.configs.length === 0 ? (
        <p>{d.carrierId ? "This carrier has no invoice templates." : "There are no invoice templates yet."}</p>
      ) : (
        <table className="w-full text-sm" data-testid="templates">
          <caption className="sr-only">Carrier invoice templates</caption>
          <thead className="border-y border-slate-200 text-left text-xs uppercase text-slate-500">
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Carrier</th>
              <th scope="col">Format</th>
              <th scope="col">Sheets</th>
              <th scope="col">Steps</th>
            </tr>
          </thead>
          <tbody>
            {d.configs.map((c) => (
              <tr key={c.id}>
                <td>
                  <Link to={`/carrier_invoice_config/${c.id}`} className="text-sky-800 underline">
                    {c.name}
                  </Link>
                </td>
                <td>{c.carrier_name}</td>
                <td>{c.parser.format}</td>
                <td>{c.parser.sheets?.length ? c.parser.sheets.join(", ") : "All"}</td>
                <td>{c.steps}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
