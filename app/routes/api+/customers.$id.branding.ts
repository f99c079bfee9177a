import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertBrandingUser, listBrandings, saveBranding } from "~/modules/branding/branding.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { api, assertMethod, readForm } from "~/utils/http.server";
import { AppError } from "~/utils/errors";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/branding: the customer's brandings (admins but not customer service, super admins). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertBrandingUser(user);
    const customerId = idParam(params.id, "Customer id");
    await customerForStaff(context.db, user, customerId);
    return listBrandings(context.db, user, customerId);
  });
}

/**
 * PUT (multipart: country_code, env, site_id?, logo_image?, bg_image?): sets one scope's images.
 * PNG or JPEG by their bytes, SVG sanitised, each at most 2 MB. The caller is checked before the body is read.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertBrandingUser(user);
    const customerId = idParam(params.id, "Customer id");
    await customerForStaff(context.db, user, customerId);
    if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
      throw new AppError("bad_request", "Send the branding as a multipart form (country_code, env, site_id, logo_image, bg_image).");
    }
    return saveBranding(context.db, user, customerId, await readForm(request));
  });
}
