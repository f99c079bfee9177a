import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { EnquiriesPage } from "~/components/enquiries/EnquiriesPage";
import { requireUser } from "~/modules/auth/guard.server";
import { handleEnquiriesForm, loadEnquiriesPage } from "~/modules/enquiries/page.server";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Enquiries · FreightDesk" }];

/** /consignment/{id}/enquiries: the enquiries of one consignment the user may see (else 404). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    return await loadEnquiriesPage(context, user, new URL(request.url), pageId(params.id));
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Raise an enquiry about this consignment (the consignment screen's enquiry modal posts here too), comment, or change a status. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const id = pageId(params.id);
  try {
    return await handleEnquiriesForm(context, user, await readPageForm(request), new URL(request.url), id);
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default EnquiriesPage;
