import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { SiteForm } from "~/components/admin/SiteForm";
import { requireStaff } from "~/modules/auth/guard.server";
import { nest } from "~/modules/consignments/form";
import { SITE_MESSAGES, timeZones } from "~/modules/customers/sites";
import { createSiteForAdmin, deleteSiteForAdmin, getSiteForAdmin, siteOfCustomer, updateSiteForAdmin } from "~/modules/customers/sites.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { AppError, errorsAsFields, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.site ? `${d.site.name} · Site` : "New site"} · FreightDesk` }];

/** /customers/{customerId}/sites: a new site; /customers/{customerId}/sites/{siteId}: that one with its accounts. `?saved=1`: "Site was saved.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const siteId = params.siteId ? pageId(params.siteId) : null;
  const saved = new URL(request.url).searchParams.has("saved");
  try {
    const customer = await customerForStaff(context.db, user, customerId);
    const site = siteId ? await getSiteForAdmin(context.db, user, customerId, siteId) : null;
    const crumbs = await breadcrumbTrail(context.db, user, siteId ? { model: "site", id: siteId } : { model: "site", parent: "customer", parent_id: customerId });
    return { customerId, customerName: customer.name, site, crumbs, saved, zones: timeZones() };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** The posted form as the /api body: dotted names nest; an unticked checkbox is absent, so it reads as false. */
function siteBody(form: FormData) {
  const entries = [...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "intent");
  const body = nest(entries) as Record<string, unknown> & { address?: Record<string, unknown>; site_options?: Record<string, unknown> };
  body.name = body.address?.name ?? "";
  body.despatch_enabled = form.has("despatch_enabled");
  body.site_options = { ...body.site_options, different_billing_address: form.has("site_options.different_billing_address") };
  return body;
}

/** The /api body's `name` is the form's site name field (issue 31 #4: the message marked nothing). */
const SITE_FIELD_OF_KEY = { name: "address.name" };

/** Save (create or change, then the site again with "Site was saved.") or intent=delete (refused with the server's reason while in use). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const siteId = params.siteId ? pageId(params.siteId) : null;
  const form = await readPageForm(request);
  try {
    if (form.get("intent") === "delete" && siteId) {
      await deleteSiteForAdmin(context.db, user, customerId, siteId);
      return redirect(`/customers/${customerId}/index_sites`);
    }
    const body = siteBody(form);
    const saved = siteId ? await updateSiteForAdmin(context.db, user, customerId, siteId, body) : await createSiteForAdmin(context.db, user, customerId, body);
    return redirect(`/customers/${customerId}/sites/${saved.id}?saved=1`);
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    const invalid = e.code === "invalid";
    if (siteId) await siteOfCustomer(context.db, customerId, siteId);
    return data({ message: invalid ? SITE_MESSAGES.failed : e.message, errors: (invalid ? errorsAsFields(e.fieldErrors, SITE_FIELD_OF_KEY) : {}) as FieldErrors, values: invalid ? siteBody(form) : null }, { status: e.status });
  }
}

export default function SiteScreen() {
  const loaded = useLoaderData<typeof loader>();
  // each navigation (New, Save's redirect) starts the fields again from what the loader read
  return <SiteForm key={useLocation().key} {...loaded} />;
}
