import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { DatePicker } from "~/components/DatePicker";
import { TemplateEditor, templateEditorLinks } from "~/components/notifications/TemplateEditor";
import { localDate, todayIn } from "~/modules/calendar/site-time";
import { HEADER_MAX, MESSAGES, NOTICE_TAGS } from "~/modules/notices/admin";
import { createNoticeForAdmin, getNoticeForAdmin, requireNoticeAdmin, updateNoticeForAdmin } from "~/modules/notices/admin.server";
import { listCustomers } from "~/modules/tenancy/customers.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { formErrorData, throwIfAccessError } from "~/utils/ui.server";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";

export const links: LinksFunction = templateEditorLinks;
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.notice ? `${d.notice.header} · Notice` : "New notice"} · FreightDesk` }];

/** /notice: a new notice (`?customer_id` chooses its customer); /notice/{id}: that one (404 when there is none). `?saved=1`: "Notice updated."; `?created=1`: "Notice created.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireNoticeAdmin(context, request);
  const url = new URL(request.url);
  const { timeZone: zone, dateFormat } = user.clock;
  const customers = (await listCustomers(context.db, user)).map((c) => ({ id: c.id, name: c.name }));
  const alerts: Alert[] = url.searchParams.has("created") ? [{ type: "success", message: MESSAGES.created }] : url.searchParams.has("saved") ? [{ type: "success", message: MESSAGES.updated }] : [];
  const wanted = Number(url.searchParams.get("customer_id"));
  const defaults = { customerId: customers.some((c) => c.id === wanted) ? wanted : user.customer.id, publishDate: localDate(new Date(), zone, dateFormat), today: todayIn(zone), dateFormat };
  if (!params.id) return { notice: null, customers, alerts, defaults };
  try {
    return { notice: await getNoticeForAdmin(context.db, user, pageId(params.id)), customers, alerts, defaults };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const FIELDS = ["header", "customer_id", "publish_at", "content"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** Save: creates or changes the notice, then shows it again with "Notice created." or "Notice updated."; field errors per field. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireNoticeAdmin(context, request);
  const id = params.id ? pageId(params.id) : null;
  const form = await readPageForm(request);
  const values = Object.fromEntries(FIELDS.map((k) => [k, String(form.get(k) ?? "")])) as Values;
  try {
    const saved = id ? await updateNoticeForAdmin(context.db, user, id, values) : await createNoticeForAdmin(context.db, user, values);
    return redirect(`/notice/${saved.id}?${id ? "saved" : "created"}=1`);
  } catch (e) {
    return formErrorData(e, "The notice was not saved: please correct the fields marked.", values);
  }
}

export default function NoticeEditor() {
  const { notice, customers, alerts, defaults } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const heading = notice ? `Edit notice: ${notice.header}` : "New notice";
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={result?.message ? [{ type: "error", message: result.message }] : alerts} />
      {notice && (
        <p className="text-sm text-slate-700" data-testid="notice-state">
          {notice.published ? "Published to the users of " : "Not published yet: publish it from the notices list to send it to the users of "}
          {notice.customer_name}.
        </p>
      )}
      {/* keyed by the notice: New (or Save's redirect) starts the fields again from what is stored */}
      <Form key={notice?.id ?? "new"} ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <TextField name="header" label="Header" errors={errors} required maxLength={HEADER_MAX} defaultValue={values?.header ?? notice?.header ?? ""} />
        <div>
          <label htmlFor="customer_id" className="label">
            Customer
          </label>
          <select
            id="customer_id"
            name="customer_id"
            defaultValue={values?.customer_id ?? notice?.customer_id ?? defaults.customerId}
            className="input w-72"
            {...fieldAria(errors, "customer_id")}
          >
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError id="customer_id-error" errors={errors.customer_id} />
        </div>
        <div>
          <DatePicker
            id="publish_at"
            name="publish_at"
            label="Publish date"
            className="w-48"
            country={defaults.dateFormat}
            today={defaults.today}
            defaultValue={values?.publish_at ?? notice?.publish_date ?? defaults.publishDate}
            invalid={fieldAria(errors, "publish_at")["aria-invalid"]}
            describedBy={fieldAria(errors, "publish_at")["aria-describedby"]}
          />
          <FieldError id="publish_at-error" errors={errors.publish_at} />
        </div>
        <TemplateEditor
          id="content"
          name="content"
          label="Content"
          defaultValue={values?.content ?? notice?.content ?? ""}
          tags={NOTICE_TAGS}
          hint="Each reader sees the tags filled in with their own name and customer."
          error={errors.content?.join(" ")}
        />
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            Save
          </button>
          <Link to="/notice" className="btn">
            New
          </Link>
          <Link to="/notices" className="btn">
            Back
          </Link>
        </div>
      </Form>
    </div>
  );
}
