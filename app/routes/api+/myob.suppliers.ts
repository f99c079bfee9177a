import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertMyobUser, searchSuppliers } from "~/modules/accounting/connection.server";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const querySchema = z.object({ query: z.string({ error: "query is required" }).trim().min(1, "query is required").max(100, "query is at most 100 characters") });

/** GET /api/myob/suppliers?query=: up to 10 suppliers of the accounting service whose name contains the query. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertMyobUser(user);
    const { query } = parseOrThrow(querySchema, readQueryObject(request));
    return { suppliers: await searchSuppliers(context.db, user, query) };
  });
}
