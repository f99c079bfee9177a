import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { searchDangerousGoods } from "~/modules/dangerous-goods/dangerous-goods.server";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const query = z.object({ query: z.string().max(100, "Query is too long").default("") });

/** GET /api/dangerous_goods_types?query: UN number or proper shipping name typeahead (from 3 characters). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await requireApiUser(context, request);
    const q = parseOrThrow(query, readQueryObject(request));
    return { dangerous_goods_types: await searchDangerousGoods(context.db, q.query) };
  });
}
