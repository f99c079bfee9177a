import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { countrySchema, searchLocalities } from "~/modules/localities/localities.server";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const query = z.object({ query: z.string().max(100).default(""), country: countrySchema });

/** GET /api/address_selection/search_locality?query&country: up to 6 places, from 3 characters. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await requireApiUser(context, request);
    const q = parseOrThrow(query, readQueryObject(request));
    return { localities: await searchLocalities(context.db, q) };
  });
}
