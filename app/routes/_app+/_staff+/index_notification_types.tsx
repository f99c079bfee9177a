import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { FIELD_LABELS, MESSAGES } from "~/modules/notifications/types";
import { listNotificationTypes } from "~/modules/notifications/types.server";

export const meta: MetaFunction = () => [{ title: "Notification Types · FreightDesk" }];

/** Super admins only (spec 2 section 6): the path rule lets customer service and admins this far. */
async function requireTypeAdmin(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.notificationTypes(signed.user)) throw redirect("/");
  return signed;
}

/** The list, by name; `?saved=1` or `?deleted=1` (where the editor sends one back) says what was done. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireTypeAdmin(context, request);
  const params = new URL(request.url).searchParams;
  const alerts: Alert[] = [];
  if (params.has("saved")) alerts.push({ type: "success", message: MESSAGES.saved });
  if (params.has("deleted")) alerts.push({ type: "success", message: MESSAGES.deleted });
  return { types: await listNotificationTypes(context.db, user), alerts };
}

export default function NotificationTypes() {
  const { types, alerts } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Notification Types</h1>
        <Link to="/notification_types" className="btn-primary">
          New notification type
        </Link>
      </div>
      <Alerts alerts={alerts} />
      {types.length === 0 ? (
        <p className="text-sm text-slate-600">No Notification Types found.</p>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-sm" data-testid="notification-types">
            <caption className="sr-only">Notification types, by name</caption>
            <thead className="bg-slate-50 text-left text-xs uppercase text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Name
                </th>
                <th scope="col" className="px-3 py-2">
                  Field name
                </th>
                <th scope="col" className="px-3 py-2">
                  Max length
                </th>
                <th scope="col" className="px-3 py-2">
                  Used by
                </th>
              </tr>
            </thead>
            <tbody>
              {types.map((t) => (
                <tr key={t.id} className="border-t border-slate-100">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    <Link to={`/notification_types/${t.id}`} className="text-sky-700 hover:underline" aria-label={`Edit ${t.name}`}>
                      {t.name}
                    </Link>
                  </th>
                  <td className="px-3 py-2">{FIELD_LABELS[t.field_name]}</td>
                  <td className="px-3 py-2">{t.max_length ?? "No limit"}</td>
                  <td className="px-3 py-2">{t.used_by === 1 ? "1 preference" : `${t.used_by} preferences`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
