import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EnquiriesPage } from "~/components/enquiries/EnquiriesPage";
import { requireUser } from "~/modules/auth/guard.server";
import { handleEnquiriesForm, loadEnquiriesPage } from "~/modules/enquiries/page.server";
import { readPageForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Enquiries · FreightDesk" }];

/** /enquiries: every enquiry of the user's customer (customer service: every customer's), ?status, ?type, ?page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    return await loadEnquiriesPage(context, user, new URL(request.url), null);
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Raise an enquiry, comment on one, or (customer service) change its status. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    return await handleEnquiriesForm(context, user, await readPageForm(request), new URL(request.url), null);
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default EnquiriesPage;
