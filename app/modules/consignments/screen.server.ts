/**
 * What the consignment screen's loader and action need, so the routes (`/` and
 * `/consignment/{id}`) stay thin: the screen's data, and a form post turned into a save, a rate
 * request (the no-JavaScript "Get rates"), or a print preference.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { manifests } from "../../../db/schema";
import { siteSenderAddress } from "./site-sender";
import { itemTypesOf } from "../item-types/item-types.server";
import { sitesOfUser } from "../customers/user-sites.server";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { requireUser } from "../auth/guard.server";
import { throwIfAccessError } from "../../utils/ui.server";
import { canEditRecipients } from "../addresses/addresses.server";
import { rateConsignment } from "../rating/rating.server";
import type { Rate } from "../rating/engine";
import { updateUserOptions } from "../users/options.server";
import { AppError, firstErrorMessage, type FieldErrors } from "../../utils/errors";
import { getConsignment, STALE_MESSAGE, type ConsignmentJson } from "./consignments.server";
import { customReferenceChoices } from "./custom-reference.server";
import { promoteQuote, updateChargeAccount } from "./operations.server";
import { saveConsignment } from "./save.server";
import { todayIn, userToday } from "../calendar/site-time";
import { deleteConsignments } from "./delete.server";
import { printLabels } from "../printing/labels.server";
import { belongsTo, VARIANTS, variantOf, type Variant } from "./variants";
import { defaultPickupWindow } from "./returns.server";
import { consignmentFromForm, ratingPayloadOf } from "./form";
import { parseScreenInput, ratingErrorsAsForm, resolveScreenPlaces } from "./screen-input.server";
import type { PlaceChoice } from "../localities/resolve.server";
import { cancellationOffered, confirmCancel, initiateCancel } from "../despatch/cancel.server";
import { despatchReturn } from "../despatch/despatch.server";
import { requestRedespatch } from "../despatch/redespatch.server";
import { emailReturnDocuments } from "../despatch/return-email.server";
import { jobStatusFor } from "../jobs/jobs.server";
import type { Mailer } from "../mail/mailer.server";
import type { Renderer } from "../printing/renderer.server";
import { cancelWindowOpen, isFailed } from "./rules";
import { MAX_ID } from "../../utils/ids";
import { readPageForm } from "../../utils/http.server";

/** What the screen's post needs besides the database: the queue (despatch), the mailer and the renderer (return e-mails). */
export interface ScreenServices {
  queue: JobQueue;
  mailer: Mailer;
  renderer: Renderer;
}

const JOB_ID = /^[0-9a-f-]{36}$/i;

export interface ScreenSite {
  id: number;
  code: string;
  name: string;
  country: string;
  som: "metric" | "imperial";
  address: Record<string, string | null>;
  csPhoneNumber: string | null;
  /** the site's time zone and today in it: its date pickers and the times the screen shows */
  timezone: string | null;
  today: string;
}

export interface ScreenItemType {
  id: number;
  name: string;
  description: string;
  length: number | null;
  width: number | null;
  height: number | null;
  weight: number | null;
  increments: number | null;
  labels: number;
  som: "metric" | "imperial";
}

const n = (v: string | null) => (v == null ? null : Number(v));

export async function loadConsignmentScreen(db: DbOrTx, user: CurrentUser, id: number | null, url: URL, variant: Variant = "consignment", since?: FeedMark) {
  const [consignment, mine, types, referenceChoices] = await Promise.all([
    id ? getConsignment(db, user, id) : Promise.resolve(null),
    sitesOfUser(db, user, since),
    itemTypesOf(db, user.customer.id, since),
    customReferenceChoices(db, user),
  ]);
  if (consignment && !belongsTo(variant, consignment)) throw new AppError("not_found", `${VARIANTS[variant].noun === "quote" ? "Quote" : "Consignment"} not found`);
  const saved = url.searchParams.get("saved");
  return {
    variant,
    consignment,
    // the date picker's today: at the consignment's site, else the user's default site
    today: userToday(user, consignment?.site_id),
    pickupDefault: (() => {
      const home = mine.find((x) => x.id === user.defaultSiteId) ?? mine[0];
      return VARIANTS[variant].returnType && home ? defaultPickupWindow(home.country, home.region, todayIn(home.timezone)) : null;
    })(),
    sites: mine.map<ScreenSite>((s) => ({
      id: s.id,
      code: s.code,
      name: s.name,
      country: s.country,
      som: s.som,
      csPhoneNumber: s.csPhoneNumber,
      timezone: s.timezone,
      today: todayIn(s.timezone),
      address: siteSenderAddress(s),
    })),
    defaultSiteCode: mine.find((s) => s.id === user.defaultSiteId)?.code ?? mine[0]?.code ?? null,
    itemTypes: types.map<ScreenItemType>((t) => ({
      id: t.id,
      name: t.name,
      description: t.description,
      length: n(t.length),
      width: n(t.width),
      height: n(t.height),
      weight: n(t.weight),
      increments: n(t.increments),
      labels: t.labels,
      som: t.som,
    })),
    customer: {
      name: user.customer.name,
      customReferenceLabel: user.customer.customConsignmentReferenceLabel || "Custom reference",
      customReferenceChoices: referenceChoices,
      deliveryOptionsEnabled: Boolean(user.customer.options.delivery_options_enabled),
      customReferenceType: user.customer.customConsignmentReferenceType,
      placeholders: user.customer.options.placeholder_texts ?? {},
      specialInstructions: user.customer.specialInstructions,
    },
    printButton: user.options.print_button === "save_print_new" ? "save_print_new" : "save_print",
    cancelOffered: cancellationOffered(),
    // read with the data, not at render: a kept page stays true to its data (decision 048)
    cancelWindowOpen: consignment ? cancelWindowOpen({ cancellationAllowedDate: consignment.cancellation_allowed_date }, user) : false,
    canEditRecipients: canEditRecipients(user),
    saved: saved === "complete" || saved === "incomplete" ? saved : null,
    /** labels just printed by Save + Print (a consignment id), or why they were not */
    printed: await printedLabels(db, user, url.searchParams.get("print")),
    merged: /^\d+$/.test(url.searchParams.get("merged") ?? ""),
    /** why Despatch + print or Despatch + email did not start (the return was saved) */
    despatchError: url.searchParams.get("despatch_error"),
    /** a despatch or redespatch just queued from this screen, followed until it ends */
    job: JOB_ID.test(url.searchParams.get("job") ?? "") ? await jobStatusFor(db, user, url.searchParams.get("job")!).catch(() => null) : null,
    /** the redespatch modal (?redespatch=1): the number and when its manifest last went to the carrier */
    redespatch: url.searchParams.get("redespatch") && consignment && isFailed(consignment.state) ? await lastDespatch(db, consignment) : null,
  };
}

async function lastDespatch(db: DbOrTx, c: ConsignmentJson) {
  const [m] = c.manifest_id ? await db.select({ time: manifests.despatchTime }).from(manifests).where(eq(manifests.id, c.manifest_id)) : [];
  return { number: c.consignment_number, lastDespatchTime: m?.time?.toISOString() ?? null };
}

export type ScreenData = Awaited<ReturnType<typeof loadConsignmentScreen>>;

/** What a failed post gives back to the form: what was typed (nothing is lost), per-field errors and the alert. */
export interface ScreenOutcome {
  values: Record<string, string>;
  errors: FieldErrors;
  alert: { type: "error" | "warning" | "info" | "success"; message: string; refresh?: boolean } | null;
  /** the cancel acknowledgement (cancel_confirmed): an e-mail went to the carrier, follow it up */
  dialog?: { title: string; message: string } | null;
  rates: Rate[] | null;
  selectedIndex: number | null;
  /** without JavaScript: the places to choose among, by address (`receiver_address`) */
  places?: Record<string, PlaceChoice>;
}

const FAILED_NEW = "Unable to save. If issue persists, please contact tech support.";

/**
 * The screen's post. Save intents redirect to the saved consignment (PRG), with `saved` telling
 * the loader which confirmation to show; everything else answers an outcome for the form.
 */
export async function postConsignmentScreen(
  db: DbOrTx,
  user: CurrentUser,
  id: number | null,
  form: FormData,
  existing: ConsignmentJson | null,
  variant: Variant = "consignment",
  services?: ScreenServices,
): Promise<ScreenOutcome | Response> {
  const v = VARIANTS[variant];
  if (existing && !belongsTo(variant, existing)) throw new AppError("not_found", "Consignment not found");
  let entries = [...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string");
  let values = Object.fromEntries(entries);
  // the Save and Print menu posts only its print_button choice
  const intent = values.intent ?? (values.print_button ? "print_button" : "save");
  const siteCode = values.site_code ?? existing?.site_code;
  const country = user.sites.find((s) => s.code === siteCode)?.country ?? "AUSTRALIA";
  const outcome = (o: Partial<ScreenOutcome>): ScreenOutcome => ({ values, errors: {}, alert: null, rates: null, selectedIndex: null, ...o });

  if (intent === "print_button") {
    try {
      await updateUserOptions(db, user, user.id, { options: { print_button: values.print_button } });
      return outcome({ alert: { type: "success", message: "Printing preference saved." } });
    } catch {
      return outcome({ alert: { type: "error", message: "Could not update printing preference." } });
    }
  }

  if (intent === "promote" && id) {
    try {
      const promoted = await promoteQuote(db, user, id);
      return redirect(`${VARIANTS[variantOf(promoted)].path}/${promoted.id}?saved=${Object.keys(promoted.errors).length ? "incomplete" : "complete"}`);
    } catch (e) {
      if (e instanceof AppError && e.code === "conflict") return outcome({ alert: { type: "error", message: e.message } });
      throw e;
    }
  }
  if (intent === "charge_account" && id && existing) {
    try {
      await updateChargeAccount(db, user, id, { version: values.version || existing.version, charge_account: values.failed_charge_account });
      return redirect(`${v.path}/${id}?saved=complete`);
    } catch (e) {
      if (!(e instanceof AppError) || e.code === "not_found") throw e;
      // spec 1 section 8: a failed charge account update shows the stale message
      return outcome({ errors: e.fieldErrors, alert: { type: "error", message: STALE_MESSAGE, refresh: true } });
    }
  }
  if (intent === "delete" && id) {
    await deleteConsignments(db, user, { ids: [id] });
    return redirect(v.isQuote ? `/quotes?deleted=${id}` : `/?deleted=${id}`);
  }
  if (services && id && existing) {
    const after = await despatchIntents(db, user, id, existing, intent, v.path, services);
    if (after) return after instanceof Response ? after : outcome(after);
  }

  // what is left is Get rates or a save: typed places resolved first (no JavaScript), then the
  // input checked with every problem in its field's own words
  const rating = intent === "rate";
  // a new consignment's save names no cause unless it is the person's to fix (spec: FAILED_NEW)
  const refused = (errors: FieldErrors, message: string, theirs = Boolean(id)) =>
    outcome({ errors, alert: rating ? { type: "warning", message: `Cannot rate yet: ${message}` } : { type: "error", message: theirs ? `Unable to save. ${message}` : FAILED_NEW } });
  const places = await resolveScreenPlaces(db, values, { required: rating });
  if (places.values !== values) {
    values = places.values;
    entries = Object.entries(values);
  }
  if (places.problems.length) return { ...refused(places.errors, places.problems.join("; "), true), places: places.choices };
  const input = consignmentFromForm(entries, country);
  const checked = parseScreenInput(input);
  if (checked.errors) return refused(checked.errors, firstErrorMessage(checked.errors) ?? "check the highlighted fields.");
  if (rating) {
    try {
      const response = await rateConsignment(db, user, ratingPayloadOf({ ...checked.input, site_code: siteCode ?? "", return_type: v.returnType }));
      return outcome({ rates: response.carriers, selectedIndex: response.selected_index });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const errors = ratingErrorsAsForm(e.fieldErrors);
      return refused(errors, firstErrorMessage(errors) ?? e.message);
    }
  }

  try {
    const { consignment, complete } = await saveConsignment(db, user, id, input, { isQuote: v.isQuote, returnType: v.returnType });
    const saved = complete ? "complete" : "incomplete";
    // Save + Print: a complete consignment prints its labels now (number and SSCCs allocated); the
    // screen then opens them. An incomplete one is saved and says why it did not print.
    let printed = "";
    if ((intent === "save_print" || intent === "save_print_new" || intent === "despatch_print") && !v.isQuote) {
      printed = complete ? `&print=${consignment.id}` : "&print=incomplete";
      if (complete) await printLabels(db, user, consignment.id);
    }
    // Despatch + print and Despatch + email of a return: saved, then despatched in a job the screen follows
    if ((intent === "despatch_print" || intent === "despatch_email") && v.returnType && complete && services) {
      try {
        const { job_id } = await despatchReturn(db, services.queue, user, consignment.id, { send_email: intent === "despatch_email" });
        return redirect(`${v.path}/${consignment.id}?saved=${saved}${printed}&job=${job_id}`);
      } catch (e) {
        if (!(e instanceof AppError) || e.code === "forbidden" || e.code === "not_found") throw e;
        return redirect(`${v.path}/${consignment.id}?saved=${saved}&despatch_error=${encodeURIComponent(e.message)}`);
      }
    }
    const next = intent === "save_print_new" ? `/?saved=${saved}${printed}` : `${v.path}/${consignment.id}?saved=${saved}${printed}`;
    return redirect(next);
  } catch (e) {
    if (!(e instanceof AppError) || e.code === "forbidden" || e.code === "not_found") throw e;
    if (e.code === "stale") return outcome({ alert: { type: "error", message: e.message, refresh: true } });
    const message = id ? `Unable to save. ${firstErrorMessage(e.fieldErrors) ?? e.message}` : FAILED_NEW;
    return outcome({ errors: e.fieldErrors, alert: { type: "error", message } });
  }
}

const idOf = (raw: string | undefined) => {
  if (raw == null) return null;
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0 || id > MAX_ID) throw new AppError("not_found", "Consignment not found");
  return id;
};

/** What /consignment/{id} shows, as a warning, for an id the user has no consignment of (spec 1 section 8). */
export const NO_CONSIGNMENT = "No consignment found";

/** The loader of a variant's screen (`/consignment/{id?}`, `/quote/{id?}`, ...). */

export function screenLoader(variant: Variant) {
  return async ({ request, context, params }: LoaderFunctionArgs) => {
    const { user, since } = await requireUser(context, request);
    try {
      return await loadConsignmentScreen(context.db, user, idOf(params.id), new URL(request.url), variant, since);
    } catch (e) {
      // an unknown (or another customer's) consignment: the spec's warning, still a 404
      if (variant === "consignment" && e instanceof AppError && e.code === "not_found") throw data({ message: NO_CONSIGNMENT, type: "warning" }, { status: 404 });
      throwIfAccessError(e);
      throw e;
    }
  };
}

/** The action of a variant's screen. */
export function screenAction(variant: Variant) {
  return async ({ request, context, params }: ActionFunctionArgs) => {
    const { user } = await requireUser(context, request);
    try {
      const id = idOf(params.id);
      const existing = id ? await getConsignment(context.db, user, id) : null;
      return await postConsignmentScreen(context.db, user, id, await readPageForm(request), existing, variant, context);
    } catch (e) {
      throwIfAccessError(e);
      throw e;
    }
  };
}

/** Labels just printed by Save + Print: which consignment and how many, or why none. */
async function printedLabels(db: DbOrTx, user: CurrentUser, param: string | null): Promise<{ id: number; count: number } | "incomplete" | null> {
  if (param === "incomplete") return "incomplete";
  if (!param || !/^\d+$/.test(param)) return null;
  const c = await getConsignment(db, user, Number(param)).catch(() => null);
  return c ? { id: c.id, count: c.number_of_labels } : null;
}

/**
 * The posts that act on a saved consignment after despatch: Redespatch (from its modal), Cancel,
 * Confirm Cancel and Resend email. Answers a redirect or an outcome, or null for other intents.
 */
async function despatchIntents(
  db: DbOrTx,
  user: CurrentUser,
  id: number,
  existing: ConsignmentJson,
  intent: string,
  path: string,
  services: ScreenServices,
): Promise<Response | Partial<ScreenOutcome> | null> {
  const act = async (run: () => Promise<Response | Partial<ScreenOutcome>>) => {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof AppError) || e.code === "not_found") throw e;
      return { alert: { type: "error" as const, message: e.message } };
    }
  };
  switch (intent) {
    case "redespatch":
      return act(async () => {
        try {
          const { job_id } = await requestRedespatch(db, services.queue, user, id);
          return redirect(`${path}/${id}?job=${job_id}`);
        } catch (e) {
          if (e instanceof AppError && e.code === "conflict") return { alert: { type: "error", message: "Manifest failed to redespatch." } };
          throw e;
        }
      });
    case "cancel":
      return act(async () => {
        const answer = await initiateCancel(db, services.mailer, user, id);
        if (answer.result === "cancel_rejected") return { alert: { type: "error", message: answer.message } };
        if (answer.result === "cancel_confirmed") return { dialog: { title: "Cancellation requested", message: answer.message } };
        return { alert: { type: "success", message: answer.message } };
      });
    case "confirm_cancel":
      return act(async () => ({ alert: { type: "success", message: (await confirmCancel(db, user, id)).message } }));
    case "resend_email":
      return act(async () => ({ alert: { type: "success", message: (await emailReturnDocuments({ db: db, ...services }, user, existing.id)).message } }));
    default:
      return null;
  }
}
