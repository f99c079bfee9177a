import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { countrySchema, localitiesByPostcode } from "~/modules/localities/localities.server";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const query = z.object({ query: z.string().max(20).default(""), type: z.literal("postcode").default("postcode"), country: countrySchema });

/** GET /api/localities?query&type=postcode&country: the places of a postcode. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    await requireApiUser(context, request);
    const q = parseOrThrow(query, readQueryObject(request));
    return { localities: await localitiesByPostcode(context.db, q) };
  });
}
