import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { noticesPage, NOTICES_PAGE_SIZE } from "~/modules/notices/notices.server";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const query = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(NOTICES_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});

/** GET /api/notices?limit&offset: a page of the user's notices (20 a page) and the unseen count. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const page = parseOrThrow(query, readQueryObject(request));
    const { notices, total, unseen } = await noticesPage(context.db, user, page);
    return { notices, total, unseen };
  });
}
