import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { addressSelection } from "~/modules/localities/localities.server";
import { COUNTRIES } from "../../../db/schema/rating";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const query = z.object({
  query: z.string().max(100).default(""),
  type: z.enum(["recipient", "site", "postcode"], { error: "type must be recipient, site or postcode" }),
  country: z.enum(COUNTRIES).optional(),
});

/** GET /api/address_selection?query&type&country: recipients, sites or postcode places as addresses. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const q = parseOrThrow(query, readQueryObject(request));
    return { addresses: await addressSelection(context.db, user, q) };
  });
}
