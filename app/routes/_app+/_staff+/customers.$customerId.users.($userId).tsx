import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { UserFields } from "~/components/users/UserFields";
import { requireStaff } from "~/modules/auth/guard.server";
import { isSuperAdmin } from "~/modules/auth/roles";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { FLAGS, MESSAGES, MORE_FLAGS, assignableRoles } from "~/modules/users/admin";
import { createUser, customerSites, getUser, unlockCustomerUser, updateUser } from "~/modules/users/admin.server";
import { generatePassword } from "~/modules/users/generate-password";
import { inheritedClockOf } from "~/modules/users/clock-default.server";
import { localTime } from "~/modules/calendar/site-time";
import { timeZones } from "~/modules/customers/sites";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";
import { useFocusFirstInvalid } from "~/components/Field";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.user ? `${d.user.full_name} · User` : "New user"} · FreightDesk` }];

/** /customers/{id}/users: a new user; /customers/{id}/users/{userId}: that one (404 for another customer's). `?saved=1`: "User was saved.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user: actor } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const url = new URL(request.url);
  try {
    const customer = await customerForStaff(context.db, actor, customerId);
    const user = params.userId ? await getUser(context.db, actor, customerId, pageId(params.userId)) : null;
    const crumbs = user
      ? await breadcrumbTrail(context.db, actor, { model: "user", id: user.id, parent: "customer", parent_id: customerId })
      : [...(await breadcrumbTrail(context.db, actor, { model: "user", parent: "customer", parent_id: customerId })), { label: "New user", url: `/customers/${customerId}/users` }];
    const alerts: Alert[] = url.searchParams.has("saved") ? [{ type: "success", message: MESSAGES.saved }] : [];
    return {
      customer: { id: customer.id, name: customer.name },
      user,
      // the lock's time in the reader's clock, formatted here so the browser renders the same text
      lockedLocal: user?.locked_at ? localTime(new Date(user.locked_at), actor.clock.timeZone, actor.clock.dateFormat) : null,
      clock: { inherited: await inheritedClockOf(context.db, customerId, user), zones: timeZones() },
      sites: await customerSites(context.db, customerId),
      roles: assignableRoles(actor),
      superAdmin: isSuperAdmin(actor),
      self: user?.id === actor.id,
      // without JavaScript the modal cannot ask for one: the page offers this instead
      suggestedPassword: generatePassword(),
      alerts,
      crumbs,
    };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const TEXT_FIELDS = ["email", "full_name", "phone_number", "zendesk_id", "role", "site_id", "password", "password_confirmation", "timezone", "date_format"] as const;

/** The posted form as the schema's input: an unticked box is false, the token only from super admins' forms. */
function bodyOf(form: FormData, superAdmin: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(TEXT_FIELDS.map((k) => [k, String(form.get(k) ?? "")]));
  body.site_ids = form.getAll("site_ids").map(String);
  for (const f of [...FLAGS, ...MORE_FLAGS, "disabled"]) body[f] = form.has(f);
  if (superAdmin) body.authentication_token = String(form.get("authentication_token") ?? "");
  return body;
}

/** Save (create or change, then the user again with "User was saved."), or Unlock. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user: actor } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const userId = params.userId ? pageId(params.userId) : null;
  const form = await readPageForm(request);
  const back = (id: number) => `/customers/${customerId}/users/${id}?saved=1`;
  const body = bodyOf(form, isSuperAdmin(actor));
  try {
    if (form.get("intent") === "unlock" && userId) {
      await unlockCustomerUser(context.db, actor, customerId, userId);
      return redirect(back(userId));
    }
    const saved = userId ? await updateUser(context.db, actor, customerId, userId, body) : await createUser(context.db, actor, customerId, body);
    return redirect(back(saved.id));
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    const { password: _p, password_confirmation: _c, ...kept } = body;
    return data({ message: MESSAGES.saveFailed, errors: (e.code === "invalid" ? e.fieldErrors : { base: [e.message] }) as FieldErrors, values: kept }, { status: e.status });
  }
}

export default function UserEditor() {
  const { customer, user, lockedLocal, clock, sites, roles, superAdmin, self, suggestedPassword, alerts, crumbs } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const form = useFocusFirstInvalid(result?.errors);
  // each arrival (New, Save's redirect) starts the fields again from what is stored, passwords blank
  const arrival = useLocation().key;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const heading = user ? `Edit user: ${user.full_name}` : "New user";
  const baseErrors = result?.errors?.base;
  return (
    <div className="max-w-3xl space-y-4" data-testid="user-editor" data-hydrated={hydrated ? "true" : undefined}>
      <Breadcrumbs crumbs={crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{heading}</h1>
        <Link to={`/customers/${customer.id}/index_users`} className="btn">
          Back to users of {customer.name}
        </Link>
      </div>
      <Alerts alerts={result?.message ? [{ type: "error", message: baseErrors?.length ? `${result.message} ${baseErrors[0]}` : result.message }] : alerts} />
      <Form key={arrival} ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <UserFields
          user={user}
          lockedLocal={lockedLocal}
          clock={clock}
          values={(result?.values as Record<string, unknown> | undefined) ?? null}
          errors={result?.errors ?? {}}
          sites={sites}
          roles={roles}
          superAdmin={superAdmin}
          self={self}
          suggestedPassword={suggestedPassword}
        />
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
            Save
          </button>
          <Link to={`/customers/${customer.id}/users`} className="btn">
            New
          </Link>
        </div>
      </Form>
      {user?.locked_at ? (
        <Form method="post" id="unlock-form" hidden>
          <input type="hidden" name="intent" value="unlock" />
        </Form>
      ) : null}
    </div>
  );
}
