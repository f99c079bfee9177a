import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { FIELD_LABELS, FIELD_NAMES, MAX_LENGTH_LIMIT, NAME_MAX } from "~/modules/notifications/types";
import { deleteNotificationType, createNotificationType, getNotificationType, updateNotificationType } from "~/modules/notifications/types.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { formErrorData, throwIfAccessError } from "~/utils/ui.server";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.type ? `${d.type.name} · Notification type` : "New notification type"} · FreightDesk` }];

/** Super admins only (spec 2 section 6): the path rule lets customer service and admins this far. */
async function requireTypeAdmin(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.notificationTypes(signed.user)) throw redirect("/");
  return signed;
}

/** /notification_types: a new type; /notification_types/{id}: that one (404 when there is none). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireTypeAdmin(context, request);
  if (!params.id) return { type: null };
  try {
    return { type: await getNotificationType(context.db, user, pageId(params.id)) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const FIELDS = ["name", "max_length", "field_name"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** intent=save (create or change, then back to the list) or intent=delete (refused while preferences use the type). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireTypeAdmin(context, request);
  const id = params.id ? pageId(params.id) : null;
  const form = await readPageForm(request);
  // only the fields the form sent: a change leaves out what it does not name
  const given = Object.fromEntries(FIELDS.filter((k) => form.has(k)).map((k) => [k, form.get(k)]));
  const values = Object.fromEntries(FIELDS.map((k) => [k, typeof given[k] === "string" ? given[k] : ""])) as Values;
  try {
    if (form.get("intent") === "delete") {
      if (!id) throw new Response("Not Found", { status: 404 });
      await deleteNotificationType(context.db, user, id);
      return redirect("/index_notification_types?deleted=1");
    }
    if (id) await updateNotificationType(context.db, user, id, given);
    else await createNotificationType(context.db, user, given);
    return redirect("/index_notification_types?saved=1");
  } catch (e) {
    return formErrorData(e, "The notification type was not saved: please correct the fields marked.", values);
  }
}

export default function NotificationTypeEditor() {
  const { type } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const heading = type ? `Edit notification type: ${type.name}` : "New notification type";
  return (
    <div className="max-w-xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      {result?.message && <Alerts alerts={[{ type: "error", message: result.message }]} />}
      <Form ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <TextField name="name" label="Name" errors={errors} required maxLength={NAME_MAX} defaultValue={values?.name ?? type?.name ?? ""} />
        <TextField
          name="max_length"
          label="Max length"
          errors={errors}
          hint="The longest message of this type, in characters (160 for an SMS). Blank: no limit."
          type="number"
          min={1}
          max={MAX_LENGTH_LIMIT}
          step={1}
          inputMode="numeric"
          defaultValue={values?.max_length ?? type?.max_length ?? ""}
          className="input w-40"
        />
        <div>
          <label htmlFor="field_name" className="label">
            Field name
          </label>
          <select
            id="field_name"
            name="field_name"
            defaultValue={values?.field_name ?? type?.field_name ?? "email"}
            className="input w-56"
            {...fieldAria(errors, "field_name", true)}
          >
            {FIELD_NAMES.map((f) => (
              <option key={f} value={f}>
                {FIELD_LABELS[f]}
              </option>
            ))}
          </select>
          <p id="field_name-hint" className="mt-1 text-xs text-slate-600">
            The receiver&apos;s field the message goes to.
          </p>
          <FieldError id="field_name-error" errors={errors.field_name} />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
            Save
          </button>
          <Link to="/index_notification_types" className="btn">
            Back
          </Link>
        </div>
      </Form>
      {type && (
        <Form method="post" className="card space-y-2" aria-label={`Delete ${type.name}`}>
          <p className="text-sm text-slate-700">
            {type.used_by === 0
              ? "No notification preference uses this type."
              : `Used by ${type.used_by} notification preference${type.used_by === 1 ? "" : "s"}: it cannot be deleted while any use it.`}
          </p>
          <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
            Delete
          </button>
        </Form>
      )}
    </div>
  );
}
