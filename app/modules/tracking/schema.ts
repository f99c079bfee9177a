/**
 * What POST /api/tracking_events takes (issue 14 item 1): a bounded batch of carriers' events,
 * each named by consignment number. A malformed event refuses the batch (422 naming
 * `events.{index}.{field}`); an unknown consignment is reported per event.
 */
import { z } from "zod";
import { MAX_YEAR, MIN_YEAR, inYearWindow } from "../calendar/dates";
import { TRACKING_EVENTS } from "./states";

/** Events in one post: a carrier's feed sends its backlog in several posts of this size. */
export const MAX_EVENTS_PER_POST = 1000;

const httpUrl = (field: string) => z.url({ protocol: /^https?$/, error: `${field} must be an http or https URL` }).max(2000, `${field} is too long`);
const optionalText = (max: number, field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((s) => s || null);

export const postedEventSchema = z
  .object({
    consignment_number: z.string({ error: "consignment_number is required" }).trim().min(1, "consignment_number is required").max(50, "consignment_number is too long"),
    event: z.enum(TRACKING_EVENTS, { error: `event must be one of ${TRACKING_EVENTS.join(", ")}` }),
    event_time: z.iso
      .datetime({ offset: true, error: "event_time must be an ISO 8601 date and time with its offset (e.g. 2026-05-04T14:30:00+10:00)" })
      // the event's own date (where it happened, its event_date), as every date the product takes: 2101-01-01T09:00+10:00 is 2100 in UTC
      .refine(inYearWindow, `event_time must lie between ${MIN_YEAR} and ${MAX_YEAR}`),
    message: optionalText(1000, "message"),
    carrier_event: optionalText(100, "carrier_event"),
    latitude: z.number({ error: "latitude must be a number" }).min(-90, "latitude must be between -90 and 90").max(90, "latitude must be between -90 and 90").nullish(),
    longitude: z.number({ error: "longitude must be a number" }).min(-180, "longitude must be between -180 and 180").max(180, "longitude must be between -180 and 180").nullish(),
    pod_url: httpUrl("pod_url").nullish(),
    images: z.array(httpUrl("images")).max(10, "At most 10 images an event").optional(),
  })
  .refine((e) => (e.latitude == null) === (e.longitude == null), { message: "latitude and longitude go together", path: ["latitude"] });

export const postEventsSchema = z.object({
  events: z
    .array(postedEventSchema, { error: "events must be a list of tracking events" })
    .min(1, "events must hold at least one event")
    .max(MAX_EVENTS_PER_POST, `At most ${MAX_EVENTS_PER_POST} events can be posted at once`),
});

export type PostedEvent = z.infer<typeof postedEventSchema>;

/** The calendar date where the event happened: the date written in its time, at the carrier's offset. */
export const eventDateOf = (isoWithOffset: string) => isoWithOffset.slice(0, 10);
