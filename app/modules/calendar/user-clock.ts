/**
 * The one place that decides in which time zone and date format a person reads and types dates
 * (issue 31 #1, decision 032): their own setting, else their default site's, else their
 * customer's country's, else the provider's (Australia, Melbourne). Staff have no site, and the
 * first site found (once the demo's Los Angeles warehouse) is never theirs.
 */
import { US } from "./display-date";

export const DATE_FORMATS = ["DD/MM/YYYY", "MM/DD/YYYY"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The provider runs from Melbourne: its staff and every user without a better answer read its zone. */
export const PROVIDER_TIME_ZONE = "Australia/Melbourne";
export const PROVIDER_COUNTRY = "AUSTRALIA";

/** The zone a country's customer without sites reads (one per supported country: the most populous one). */
const COUNTRY_ZONES: Record<string, string> = {
  AUSTRALIA: PROVIDER_TIME_ZONE,
  "NEW ZEALAND": "Pacific/Auckland",
  [US]: "America/New_York",
};

export type UserClock = {
  timeZone: string;
  dateFormat: DateFormat;
  /** where each half came from, for the profile's "Default (…)" option */
  from: { timeZone: ClockSource; dateFormat: ClockSource };
};
export type ClockSource = "user" | "site" | "customer" | "provider";

export type ClockInputs = {
  own: { timezone: string | null; dateFormat: string | null };
  /** the user's default site (or a despatcher's own site), never a staff user's first site of the customer */
  site: { timezone: string | null; country: string | null } | null;
  customerCountry: string | null | undefined;
};

export const dateFormatOfCountry = (country: string): DateFormat => (country === US ? "MM/DD/YYYY" : "DD/MM/YYYY");

const isDateFormat = (v: string | null): v is DateFormat => (DATE_FORMATS as readonly string[]).includes(v ?? "");

const knownZones = new Map<string, boolean>();
/** Whether the runtime knows the zone name (a bad stored name falls through to the next answer, not to UTC). */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  let ok = knownZones.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    if (knownZones.size >= 1_000) knownZones.clear();
    knownZones.set(zone, ok);
  }
  return ok;
}

const supported = (country: string | null | undefined) => (country && COUNTRY_ZONES[country] ? country : null);

/** Own setting > default site > customer's country > provider, each half on its own. */
export function resolveClock({ own, site, customerCountry }: ClockInputs): UserClock {
  const siteCountry = supported(site?.country);
  const customer = supported(customerCountry);
  const zone: [string, ClockSource] = isTimeZone(own.timezone)
    ? [own.timezone, "user"]
    : isTimeZone(site?.timezone)
      ? [site.timezone, "site"]
      : siteCountry
        ? [COUNTRY_ZONES[siteCountry]!, "site"]
        : customer
          ? [COUNTRY_ZONES[customer]!, "customer"]
          : [PROVIDER_TIME_ZONE, "provider"];
  const format: [DateFormat, ClockSource] = isDateFormat(own.dateFormat)
    ? [own.dateFormat, "user"]
    : siteCountry
      ? [dateFormatOfCountry(siteCountry), "site"]
      : customer
        ? [dateFormatOfCountry(customer), "customer"]
        : [dateFormatOfCountry(PROVIDER_COUNTRY), "provider"];
  return { timeZone: zone[0], dateFormat: format[0], from: { timeZone: zone[1], dateFormat: format[1] } };
}

/** What a user's clock would be without their own setting: the "Default (…)" a form offers. */
export const inheritedClock = (inputs: ClockInputs): UserClock => resolveClock({ ...inputs, own: { timezone: null, dateFormat: null } });
