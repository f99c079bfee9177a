import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { UploadErrors } from "~/components/UploadErrors";
import { requireStaff } from "~/modules/auth/guard.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { userListQuery, type UserAdminJson } from "~/modules/users/admin";
import { listUsers } from "~/modules/users/admin.server";
import { MAX_DECOMPRESSED_BYTES, USER_CSV_COLUMNS, importUsers, readUserUpload } from "~/modules/users/import.server";
import { AppError } from "~/utils/errors";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";
import { MAX_UPLOAD_BYTES } from "~/utils/upload-limits";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Users · ${d?.customer.name ?? ""} · FreightDesk` }];

/** /customers/{id}/index_users?q: the customer's live and disabled users; another customer's id that does not exist answers 404. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const url = new URL(request.url);
  const parsed = userListQuery.safeParse(Object.fromEntries(url.searchParams));
  const q = parsed.success ? (parsed.data.q ?? "") : "";
  try {
    const customer = await customerForStaff(context.db, user, customerId);
    const [list, crumbs] = await Promise.all([
      listUsers(context.db, user, customerId, q || undefined),
      breadcrumbTrail(context.db, user, { model: "user", parent: "customer", parent_id: customerId }),
    ]);
    return { customer: { id: customer.id, name: customer.name }, live: list.filter((u) => !u.disabled), disabled: list.filter((u) => u.disabled), q, alerts: [] as Alert[], columns: USER_CSV_COLUMNS, maxInflatedMb: MAX_DECOMPRESSED_BYTES / 1024 / 1024, crumbs };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

type Outcome = { alerts: Alert[]; skipped: Array<{ line: number; errors: string[] }>; skippedTotal: number };

/** Import: the posted csv or gz file through the same import as POST /api/customers/{id}/users/create_bulk. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  try {
    const report = await importUsers(context.db, user, customerId, await readUserUpload(request));
    const message = `Users imported: ${report.created} added, ${report.skipped_total} skipped.`;
    return data<Outcome>({ alerts: [{ type: report.skipped_total ? "warning" : "success", message }], skipped: report.skipped, skippedTotal: report.skipped_total });
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data<Outcome>({ alerts: [{ type: "error", message: e.message }], skipped: [], skippedTotal: 0 }, { status: e.status });
  }
}

function UserTable({ users, customerId, caption }: { users: UserAdminJson[]; customerId: number; caption: string }) {
  if (!users.length) return <p className="text-sm text-slate-600">No {caption.toLowerCase()}.</p>;
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left">
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Role</th>
          <th scope="col">Locked</th>
        </tr>
      </thead>
      <tbody>
        {users.map((u) => (
          <tr key={u.id} className="border-t">
            <td>
              <Link to={`/customers/${customerId}/users/${u.id}`} className="link">
                {u.full_name}
              </Link>
            </td>
            <td>{u.email}</td>
            <td>{u.role}</td>
            <td>{u.locked_at ? "Locked" : ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function UsersList() {
  const { customer, live, disabled, q, alerts, columns, maxInflatedMb, crumbs } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Users of {customer.name}</h1>
        <Link to={`/customers/${customer.id}/users`} className="btn-primary">
          New
        </Link>
      </div>
      <Alerts alerts={outcome?.alerts ?? alerts} />
      <UploadErrors lines={outcome?.skipped ?? []} total={outcome?.skippedTotal} />
      <Form method="get" role="search" className="flex items-end gap-2" aria-label="Filter users">
        <div>
          <label htmlFor="q" className="label">
            Filter
          </label>
          <input id="q" name="q" type="search" defaultValue={q} className="input w-72" placeholder="Name or email" />
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      <section className="card space-y-2" aria-labelledby="live-users">
        <h2 id="live-users" className="font-semibold">
          Live users ({live.length})
        </h2>
        <UserTable users={live} customerId={customer.id} caption="Live users" />
      </section>
      <section className="card space-y-2" aria-labelledby="disabled-users">
        <h2 id="disabled-users" className="font-semibold">
          Disabled users ({disabled.length})
        </h2>
        <UserTable users={disabled} customerId={customer.id} caption="Disabled users" />
      </section>
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Import users">
        <h2 className="font-semibold">Import users</h2>
        <p className="text-sm text-slate-600">
          A csv file, or a gz of one (up to {MAX_UPLOAD_BYTES / 1024 / 1024} MB, {maxInflatedMb} MB once inflated), with a header row of:{" "}
          <code>{columns.join(",")}</code>. role is one of despatcher, admin, customer_service (super admins also super_admin, devs), blank for
          despatcher; site_codes separated by ; ; flags true or false. A row without a password gets a generated one and must set their own
          (forgot password). Each bad row is skipped and listed.
        </p>
        <label htmlFor="import-file" className="label">
          File
        </label>
        <input id="import-file" name="file" type="file" accept=".csv,.gz,text/csv,application/gzip" required className="text-sm" />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Importing..." : "Import"}
        </button>
      </Form>
    </div>
  );
}
