import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCustomerAdmin } from "~/modules/customers/admin.server";
import { getCustomReferences, saveCustomReferences } from "~/modules/customers/references.server";
import { AppError } from "~/utils/errors";
import { api, assertMethod, assertStorable } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/custom_references: the dropdown_generic choices, in order. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    return getCustomReferences(context.db, user, idParam(params.id, "Customer id"));
  });
}

/** POST /api/customers/{id}/custom_references [references]: replaces the list, in the order given. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertCustomerAdmin(user);
    const id = idParam(params.id, "Customer id");
    return saveCustomReferences(context.db, user, id, await readJsonValue(request));
  });
}

/** The body as JSON of any shape (readBody wants an object; this call's body is an array), checked as readBody checks. */
async function readJsonValue(request: Request): Promise<unknown> {
  const body: unknown = await request.json().catch(() => {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  });
  assertStorable(body);
  return body;
}
