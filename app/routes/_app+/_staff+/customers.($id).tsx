import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { CustomerAdminNav } from "~/components/admin/CustomerAdminNav";
import { CustomerFields } from "~/components/admin/CustomerFields";
import { requireStaff } from "~/modules/auth/guard.server";
import { isSuperAdmin } from "~/modules/auth/roles";
import { MESSAGES, customerSchema } from "~/modules/customers/admin";
import { createCustomerForAdmin, getCustomerForAdmin, updateCustomerForAdmin } from "~/modules/customers/admin.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.customer ? d.customer.name : "New customer"} · FreightDesk` }];

/** /customers: a new customer; /customers/{id}: that one. `?saved=1` says 'Customer was saved.'; `?deleted=c,m` what going live removed. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const url = new URL(request.url);
  const alerts: Alert[] = url.searchParams.has("saved") ? [{ type: "success", message: MESSAGES.saved }] : [];
  const deleted = url.searchParams.get("deleted")?.match(/^(\d+),(\d+)$/);
  if (deleted) alerts.push({ type: "info", message: `Deleted ${deleted[1]} consignments and ${deleted[2]} manifests.` });
  if (!params.id) return { customer: null, alerts, crumbs: [{ label: "Customers", url: "/index_customers" }, { label: "New customer", url: "/customers" }], superAdmin: isSuperAdmin(user) };
  const id = pageId(params.id);
  try {
    const [customer, crumbs] = await Promise.all([getCustomerForAdmin(context.db, user, id), breadcrumbTrail(context.db, user, { model: "customer", id })]);
    return { customer, alerts, crumbs, superAdmin: isSuperAdmin(user) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/**
 * Save. Unticking Test Account on a test customer first asks a super admin to confirm (and
 * whether to delete the customer's consignments and manifests); anyone else gets 'Your privilege
 * level does not allow this' from the module. Field errors come back per field.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const id = params.id ? pageId(params.id) : null;
  const form = await readPageForm(request);
  const posted = Object.fromEntries([...form.entries()].map(([k, v]) => [k, String(v)]));
  const submission = parseWithZod(form, { schema: customerSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return data({ result: submission.reply(), posted, confirm: false }, { status: 422 });
  try {
    if (id && isSuperAdmin(user) && !posted.confirm_go_live && posted.test_account !== "on") {
      const current = await getCustomerForAdmin(context.db, user, id);
      if (current.test_account) return { result: submission.reply(), posted, confirm: true };
    }
    if (!id) {
      const created = await createCustomerForAdmin(context.db, user, submission.value, { form: true });
      return redirect(`/customers/${created.id}?saved=1`);
    }
    const saved = await updateCustomerForAdmin(context.db, user, id, submission.value, { form: true });
    return redirect(`/customers/${id}?saved=1${saved.deleted ? `&deleted=${saved.deleted.consignments},${saved.deleted.manifests}` : ""}`);
  } catch (e) {
    if (e instanceof AppError && (e.code === "invalid" || e.message === MESSAGES.privilege)) {
      const formErrors = e.code === "invalid" ? [] : [e.message];
      return data({ result: submission.reply({ fieldErrors: e.fieldErrors, formErrors }), posted, confirm: false }, { status: e.status });
    }
    throwIfAccessError(e);
    throw e;
  }
}

/** A new customer's form starts as the module would store it: a test account, despatch enabled. */
const NEW_CUSTOMER = { test_account: true, despatch_enabled: true, customer_despatch_enabled: true, custom_consignment_reference_type: "text", options: {} };

export default function CustomerDetail() {
  const { customer, alerts, crumbs, superAdmin } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [form] = useForm({
    id: `customer-${customer?.id ?? "new"}`,
    lastResult: reply?.result,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: customerSchema, disableAutoCoercion: true }),
  });
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const errors = form.allErrors;
  const formError = form.errors?.[0];
  const invalid = Object.keys(errors).some((k) => k !== form.id);
  const heading = customer ? `Customer: ${customer.name}` : "New customer";
  return (
    <div className="max-w-5xl space-y-4" data-testid="customer-detail" data-hydrated={hydrated ? "true" : undefined}>
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      {customer ? <CustomerAdminNav customerId={customer.id} generic={customer.custom_consignment_reference_type === "dropdown_generic"} /> : null}
      <Alerts alerts={formError ? [{ type: "error", message: formError }] : invalid ? [{ type: "error", message: "The customer was not saved: please correct the fields marked." }] : alerts} />
      <Form method="post" {...getFormProps(form)} key={customer?.id ?? "new"} aria-label={heading} className="space-y-4">
        <CustomerFields src={{ posted: reply?.posted ?? null, stored: (customer ?? NEW_CUSTOMER) as Record<string, unknown>, errors }} customer={customer} />
        {reply?.confirm ? (
          <div role="alertdialog" aria-labelledby="go-live-title" aria-describedby="go-live-text" className="card border-amber-400 bg-amber-50" data-testid="go-live-confirm">
            <h2 id="go-live-title" className="font-semibold">
              Go live?
            </h2>
            <p id="go-live-text" className="text-sm">
              {customer?.name} will no longer be a test account.
            </p>
            <div className="my-2 flex items-center gap-2">
              <input id="delete_consignments" name="delete_consignments" type="checkbox" />
              <label htmlFor="delete_consignments">Also delete all of this customer&apos;s consignments and manifests</label>
            </div>
            <div className="flex gap-2">
              <button type="submit" name="confirm_go_live" value="yes" className="btn-primary" disabled={busy} autoFocus>
                Yes
              </button>
              <Link to={`/customers/${customer?.id}`} className="btn">
                No
              </Link>
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            Save
          </button>
          <Link to="/customers" className="btn">
            New
          </Link>
          <Link to="/index_customers" className="btn">
            Back
          </Link>
        </div>
        {superAdmin ? null : <p className="text-xs text-slate-600">Going live (unticking Test Account) is for super admins.</p>}
      </Form>
    </div>
  );
}
