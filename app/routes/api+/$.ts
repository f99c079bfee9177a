import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { AppError } from "~/utils/errors";
import { api } from "~/utils/http.server";

/** Unknown /api paths: 401 JSON without a user, else 404 JSON; never a redirect. */
async function unknown({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  return api(async () => {
    await requireApiUser(context, request, { allowPasswordReset: true });
    throw new AppError("not_found", `No API call at ${new URL(request.url).pathname}`);
  });
}

export const loader = unknown;
export const action = unknown;
