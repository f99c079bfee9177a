import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { nextBusinessDay } from "~/modules/calendar/business-days";
import { calendarDate } from "~/modules/calendar/dates";
import { userToday } from "~/modules/calendar/site-time";
import { COUNTRIES } from "../../../db/schema/rating";
import { api, readQueryObject } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";

const AU_REGIONS = ["VIC", "NSW", "QLD", "NT", "WA", "SA", "TAS", "ACT"];

const query = z
  .object({
    country: z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` }).default("AUSTRALIA"),
    region: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2,3}$/, "Region must be a state code")
      .optional(),
    date: calendarDate("Date", "Date must be YYYY-MM-DD").optional(),
  })
  .refine((q) => q.country !== "AUSTRALIA" || !q.region || AU_REGIONS.includes(q.region), {
    path: ["region"],
    message: `Region must be one of ${AU_REGIONS.join(", ")}`,
  });

/**
 * GET /api/next_business_day?country&region&date: the first business day after the date, which is
 * by default the caller's today at their default site (not UTC's).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const q = parseOrThrow(query, readQueryObject(request));
    return { date: nextBusinessDay(q.date ?? userToday(user), q.country, q.country === "NEW ZEALAND" ? undefined : q.region) };
  });
}
