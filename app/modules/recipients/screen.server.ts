import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import type { JobQueue } from "../jobs/queue";
import { jobStatusFor } from "../jobs/jobs.server";
import { breadcrumbTrail } from "../shell/breadcrumbs.server";
import { AppError } from "../../utils/errors";
import { requestDeleteAll } from "./delete-all.server";
import { startRecipientsImport, type RecipientsImportResult } from "./import-job.server";
import { recipientListQuery } from "./query";
import { deleteRecipientOf, getRecipientOf, importSitesAsRecipients, listRecipients, recipientsCustomer, saveRecipientOf } from "./recipients.server";

/** The address form's fields are posted as `address.<field>`. */
export const FORM_PREFIX = "address.";

/**
 * What /customers/{id}/index_recipients shows: a page of the list (`?page`, `?q`), the entry being
 * edited (`?edit=new` or an id), a delete-all job's status (`?job`), an import job's status and,
 * once it is done, its report (`?import`), and the trail to the customer.
 */
export async function recipientsScreen(db: DbOrTx, user: CurrentUser, customerId: number, url: URL) {
  const customer = await recipientsCustomer(db, user, customerId);
  const params = Object.fromEntries(url.searchParams);
  const query = recipientListQuery.parse(params);
  const edit = url.searchParams.get("edit");
  const editId = edit && /^\d{1,9}$/.test(edit) ? Number(edit) : null;
  const jobId = url.searchParams.get("job");
  const importId = url.searchParams.get("import");
  const [list, editing, job, importJob, crumbs] = await Promise.all([
    listRecipients(db, customer.id, query),
    customer.canEdit && editId ? getRecipientOf(db, customer.id, editId).catch(() => null) : null,
    jobId ? jobStatusFor(db, user, jobId).catch(() => null) : null,
    importId ? jobStatusFor(db, user, importId).catch(() => null) : null,
    breadcrumbTrail(db, user, { model: "recipients", parent: "customer", parent_id: customer.id }).catch(() => []),
  ]);
  return { customer, crumbs, ...list, q: query.q ?? "", editing: edit === "new" ? ("new" as const) : editing, confirmDeleteAll: url.searchParams.get("confirm") === "delete_all", job: job ? { id: jobId!, status: job } : null, importJob: importJob ? importView(importId!, importJob) : null };
}

/** An import job as the screen shows it: its progress, or once complete its message and skipped lines. */
function importView(id: string, status: Awaited<ReturnType<typeof jobStatusFor>>) {
  const info = status.info as Partial<RecipientsImportResult>;
  const done = status.status === "complete" && typeof info.created === "number";
  return {
    id,
    status,
    result: done ? { message: status.message ?? "", skipped: info.skipped ?? [], skipped_total: info.skipped_total ?? 0 } : null,
  };
}

export type ScreenOutcome =
  | { kind: "saved"; message: string }
  | { kind: "deleted"; message: string }
  | { kind: "job"; jobId: string }
  | { kind: "import"; jobId: string }
  | { kind: "sites"; created: number };

/** The screen's posts: an upload queues the import (a job); other forms say what by `intent`. */
export async function recipientsScreenAction(db: DbOrTx, queue: JobQueue, user: CurrentUser, customerId: number, request: Request, readForm: () => Promise<FormData>): Promise<ScreenOutcome> {
  if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return { kind: "import", jobId: (await startRecipientsImport(db, queue, user, customerId, request)).job_id };
  }
  const form = await readForm();
  const intent = form.get("intent");
  const id = Number(form.get("id"));
  if (intent === "save") {
    const values = Object.fromEntries([...form].filter(([k, v]) => k.startsWith(FORM_PREFIX) && typeof v === "string").map(([k, v]) => [k.slice(FORM_PREFIX.length), v]));
    const saved = await saveRecipientOf(db, user, customerId, Number.isSafeInteger(id) && id > 0 ? id : null, values);
    return { kind: "saved", message: `Recipient ${saved.name} saved.` };
  }
  if (intent === "delete") {
    await deleteRecipientOf(db, user, customerId, Number.isSafeInteger(id) && id > 0 ? id : 0);
    return { kind: "deleted", message: "Recipient deleted." };
  }
  if (intent === "delete_all") return { kind: "job", jobId: (await requestDeleteAll(db, queue, user, customerId)).job_id };
  if (intent === "import_sites") {
    return { kind: "sites", created: (await importSitesAsRecipients(db, user, customerId)).created };
  }
  throw new AppError("bad_request", "Choose what to do.");
}
