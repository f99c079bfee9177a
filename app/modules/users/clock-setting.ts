/**
 * A user's own time zone and date format as forms and /api post them (decision 032): "" or null
 * is "Default", inheriting from the default site, the customer's country or the provider. Pure,
 * so the profile, the admin user form and /api/customers/{id}/users check them alike.
 */
import { z } from "zod";
import { DATE_FORMATS, isTimeZone } from "../calendar/user-clock";

export const CLOCK_MESSAGES = {
  timezone: "Choose a time zone from the list",
  dateFormat: "Choose DD/MM/YYYY or MM/DD/YYYY",
} as const;

const inherit = (v: unknown) => (v === "" || v == null ? null : v);

export const timezoneField = z.preprocess(inherit, z.string().refine((v) => isTimeZone(v), CLOCK_MESSAGES.timezone).nullable());
export const dateFormatField = z.preprocess(inherit, z.enum(DATE_FORMATS, { error: CLOCK_MESSAGES.dateFormat }).nullable());

export const clockSettingSchema = z.object({ timezone: timezoneField, date_format: dateFormatField });
export type ClockSetting = z.infer<typeof clockSettingSchema>;
