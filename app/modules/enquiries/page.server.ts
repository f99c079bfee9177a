/**
 * What the enquiries pages (/enquiries and /consignment/{id}/enquiries) load and how their forms
 * are handled: raise, comment and (customer service) status, through the same services as
 * /api/tickets, so a person and a script get the same rules and messages.
 */
import { data, redirect } from "@remix-run/node";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { categoriesFor } from "./categories.server";
import { addComment, changeStatus, createTicket, type EnquiryServices } from "./raise.server";
import { commentsOf, listTickets, scopedConsignment, seesAllCustomers } from "./tickets.server";
import { MESSAGES } from "./types";

/** The list (filters and page from the URL), each shown enquiry's trail, the types and the form's defaults. */
export async function loadEnquiriesPage(services: EnquiryServices, user: CurrentUser, url: URL, consignmentId: number | null) {
  const { db } = services;
  const consignment = consignmentId ? await scopedConsignment(db, user, consignmentId) : null;
  const params = Object.fromEntries(url.searchParams);
  let list;
  let filterErrors: FieldErrors = {};
  try {
    list = await listTickets(db, user, { status: params.status, type: params.type, page: params.page, consignment_id: consignmentId ?? undefined });
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "invalid") throw e;
    // a hand-typed filter that will not do: say so and show the unfiltered first page
    filterErrors = e.fieldErrors;
    list = await listTickets(db, user, { consignment_id: consignmentId ?? undefined });
  }
  const [trails, categories] = await Promise.all([commentsOf(db, list.tickets.map((t) => t.id)), categoriesFor(db, user)]);
  const done = url.searchParams.get("done");
  const notice = done === "created" ? MESSAGES.created : done === "commented" ? MESSAGES.commented : done === "status" ? MESSAGES.statusChanged : null;
  return {
    consignment: consignment ? { id: consignment.id, number: consignment.number ?? "Pending" } : null,
    ...list,
    trails: Object.fromEntries(trails),
    categories,
    filterErrors,
    notice,
    staff: seesAllCustomers(user),
    // times read in the user's zone and format (their clock), not UTC
    clock: { timeZone: user.clock.timeZone, dateFormat: user.clock.dateFormat },
    // customer service keeps the working customer's list of types (spec 1 section 6)
    typesPath: seesAllCustomers(user) ? `/customers/${user.customer.id}/enquiry_types` : null,
    defaults: { full_name: user.fullName, email: user.email, phone: user.phoneNumber ?? "" },
  };
}

export interface EnquiryFormResult {
  intent: string;
  ticketId?: number;
  errors: FieldErrors;
  values: Record<string, string>;
}

/** A page's post: redirects back on success (the URL keeps the filters), else the form's errors (422/409/404). */
export async function handleEnquiriesForm(services: EnquiryServices, user: CurrentUser, form: FormData, back: URL, consignmentId: number | null) {
  const values = Object.fromEntries([...form].filter((e): e is [string, string] => typeof e[1] === "string"));
  const intent = values.intent ?? "";
  const ticketId = /^\d{1,10}$/.test(values.ticket_id ?? "") ? Number(values.ticket_id) : 0;
  const go = (done: string) => {
    const to = new URL(back);
    to.searchParams.set("done", done);
    return redirect(to.pathname + to.search);
  };
  try {
    if (intent === "create") {
      await createTicket(services, user, { ...values, consignment_id: consignmentId ?? undefined });
      // the new enquiry is the first of page 1
      back.searchParams.delete("page");
      return go("created");
    }
    if (!ticketId) throw new AppError("not_found", MESSAGES.notFound);
    if (intent === "comment") {
      await addComment(services, user, ticketId, { comment: values.comment });
      return go("commented");
    }
    if (intent === "status") {
      await changeStatus(services.db, user, ticketId, { status: values.status });
      return go("status");
    }
    throw new AppError("bad_request", "Unknown action");
  } catch (e) {
    if (!(e instanceof AppError) || e.code === "forbidden") throw e;
    return data({ intent, ticketId, errors: e.fieldErrors, values } satisfies EnquiryFormResult, { status: e.status });
  }
}
