import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { AccountForm } from "~/components/admin/AccountForm";
import { requireStaff } from "~/modules/auth/guard.server";
import { isSuperAdmin } from "~/modules/auth/roles";
import { ACCOUNT_FLAGS, ACCOUNT_MESSAGES, ACCOUNT_TEXT_FIELDS } from "~/modules/customers/accounts";
import { carrierChoices, createAccountForAdmin, getAccountForAdmin, updateAccountForAdmin } from "~/modules/customers/accounts.server";
import { getSiteForAdmin } from "~/modules/customers/sites.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.account ? `${d.account.account_number} · Account` : "New account"} · FreightDesk` }];

const idsOf = (params: LoaderFunctionArgs["params"]) => ({ customerId: pageId(params.customerId), siteId: pageId(params.siteId), accountId: params.accountId ? pageId(params.accountId) : null });

/** /customers/{c}/sites/{s}/accounts: a new carrier account of the site; .../accounts/{a}: that one. `?saved=1`: "Account was saved.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const { customerId, siteId, accountId } = idsOf(params);
  const saved = new URL(request.url).searchParams.has("saved");
  try {
    const site = await getSiteForAdmin(context.db, user, customerId, siteId);
    const account = accountId ? await getAccountForAdmin(context.db, user, customerId, siteId, accountId) : null;
    const crumbs = await breadcrumbTrail(context.db, user, accountId ? { model: "account", id: accountId } : { model: "site", id: siteId });
    return { customerId, site: { id: site.id, code: site.code, name: site.name }, account, carriers: await carrierChoices(context.db), crumbs, saved, superAdmin: isSuperAdmin(user), clock: { timeZone: user.clock.timeZone, dateFormat: user.clock.dateFormat } };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** The posted form as the /api body: an unticked checkbox is absent (false); auto despatch only from a super admin's form. */
function accountBody(form: FormData, superAdmin: boolean) {
  const body: Record<string, unknown> = Object.fromEntries(ACCOUNT_TEXT_FIELDS.map((f) => [f, String(form.get(f) ?? "")]));
  for (const f of ACCOUNT_FLAGS) body[f] = form.has(f);
  if (superAdmin) body.account_options = { auto_despatch: form.has("account_options.auto_despatch") };
  const note = String(form.get("new_note") ?? "").trim();
  body.notes_attributes = note ? [{ text: note }] : [];
  return body;
}

/** Save: "Account was saved." or "There was an error saving the Account." with the field errors. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const { customerId, siteId, accountId } = idsOf(params);
  const form = await readPageForm(request);
  const body = accountBody(form, isSuperAdmin(user));
  try {
    const saved = accountId ? await updateAccountForAdmin(context.db, user, customerId, siteId, accountId, body) : await createAccountForAdmin(context.db, user, customerId, siteId, body);
    return redirect(`/customers/${customerId}/sites/${siteId}/accounts/${saved.id}?saved=1`);
  } catch (e) {
    if (!(e instanceof AppError) || e.code === "not_found") throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    const fieldErrors = e.code === "invalid" || e.code === "forbidden" ? e.fieldErrors : {};
    return data({ message: ACCOUNT_MESSAGES.failed, errors: fieldErrors as FieldErrors, values: body }, { status: e.status });
  }
}

export default function AccountScreen() {
  // each navigation (New, Save's redirect) starts the fields again from what the loader read
  return <AccountForm key={useLocation().key} {...useLoaderData<typeof loader>()} />;
}
