import type { LoaderFunctionArgs } from "@remix-run/node";
import { openApiDocument } from "~/modules/api/openapi";
import { requireApiUser } from "~/modules/auth/guard.server";
import { api } from "~/utils/http.server";

/** GET /api/openapi.json: the /api contract, for signed-in users and scripted callers. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await requireApiUser(context, request, { allowPasswordReset: true });
    return openApiDocument;
  });
}
