import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { carrierOf } from "~/modules/carriers/services.server";
import { listValidations } from "~/modules/carriers/validations.server";
import { requireCarrierStaff, screenRead } from "~/modules/carriers/screens.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Account validations · ${d?.carrier.name ?? "Carrier"} · FreightDesk` }];

/** /carriers/{carrierId}/carrier-account-validations: the rules every account of the carrier must pass when saved. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const carrier = await screenRead(() => carrierOf(context.db, user, carrierId));
  return { carrier, deleted: new URL(request.url).searchParams.has("deleted"), validations: await listValidations(context.db, user, carrierId) };
}

export default function Validations() {
  const { carrier, deleted, validations } = useLoaderData<typeof loader>();
  return (
    <div className="max-w-4xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Account validations of {carrier.name}</h1>
        <div className="flex gap-2">
          <Link to={`/carriers/${carrier.id}/carrier-account-validation`} className="btn-primary">
            New
          </Link>
          <Link to={`/carrier/${carrier.id}`} className="btn">
            Back to carrier
          </Link>
        </div>
      </div>
      {deleted ? <Alerts alerts={[{ type: "success", message: "Validation was deleted." }]} /> : null}
      {validations.length === 0 ? (
        <p className="text-sm text-slate-600">This carrier&apos;s accounts have no validations.</p>
      ) : (
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left">
              <th scope="col">Field</th>
              <th scope="col">Rule</th>
              <th scope="col">Modifier</th>
              <th scope="col">Values</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {validations.map((v) => (
              <tr key={v.id} className="border-t">
                <td>
                  <Link to={`/carriers/${carrier.id}/carrier-account-validation/${v.id}`} className="text-sky-700 underline">
                    {v.field}
                  </Link>
                </td>
                <td>{v.rule}</td>
                <td>{v.modifier}</td>
                <td>
                  <code>{v.validation}</code>
                </td>
                <td>{v.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
