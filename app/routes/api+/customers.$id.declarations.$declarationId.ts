import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteDeclaration, getDeclaration, updateDeclaration } from "~/modules/declarations/declarations.server";
import { readDeclarationUpload } from "~/modules/declarations/upload.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { api, assertMethod } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/declarations/{declarationId}: one declaration (another customer's: 404) (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getDeclaration(context.db, user, idParam(params.id, "Customer id"), idParam(params.declarationId, "Declaration id"));
  });
}

/** PUT (multipart: name, item_type_id?, file? replacing the PDF) changes it; DELETE deletes it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    const id = idParam(params.declarationId, "Declaration id");
    await customerForStaff(context.db, user, customerId);
    if (request.method === "DELETE") return deleteDeclaration(context.db, user, customerId, id);
    return updateDeclaration(context.db, user, customerId, id, await readDeclarationUpload(request));
  });
}
