import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertBrandingUser, listBrandings } from "~/modules/branding/branding.server";
import { api, readQueryObject } from "~/utils/http.server";
import { idSchema } from "~/utils/ids";
import { parseOrThrow } from "~/utils/validation";

const querySchema = z.object({ customer_id: idSchema("customer_id must be a customer id").optional() });

/** GET /api/branding?customer_id=: every branding (or one customer's), with its image addresses. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertBrandingUser(user);
    const query = parseOrThrow(querySchema, readQueryObject(request));
    return { brandings: await listBrandings(context.db, user, query.customer_id ?? null) };
  });
}
