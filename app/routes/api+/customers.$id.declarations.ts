import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createDeclaration, listDeclarations } from "~/modules/declarations/declarations.server";
import { readDeclarationUpload } from "~/modules/declarations/upload.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { api, assertMethod } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/declarations: the customer's declarations by name (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listDeclarations(context.db, user, idParam(params.id, "Customer id"));
  });
}

/** POST (multipart: name, item_type_id?, file a PDF of at most 5 MB): a new declaration, 201. The caller is checked before the body is read. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    await customerForStaff(context.db, user, customerId);
    const created = await createDeclaration(context.db, user, customerId, await readDeclarationUpload(request));
    return Response.json(created, { status: 201 });
  });
}
