import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { requireStaff } from "~/modules/auth/guard.server";
import { addCategory, categoriesScreen, moveCategory, removeCategory, renameCategory } from "~/modules/enquiries/categories.server";
import { MESSAGES } from "~/modules/enquiries/types";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Enquiry types · FreightDesk" }];

/** A customer's enquiry types, in order (staff: the customers segment is theirs). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  try {
    const screen = await categoriesScreen(context.db, user, pageId(params.customerId));
    const done = new URL(request.url).searchParams.get("done");
    return { ...screen, notice: done === "removed" ? MESSAGES.typeRemoved : done ? MESSAGES.typeSaved : null };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** add { name }, rename { id, name }, remove { id }, up / down { id }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = Number(form.get("id") ?? 0) || 0;
  try {
    if (intent === "add") await addCategory(context.db, user, customerId, form.get("name"));
    else if (intent === "rename") await renameCategory(context.db, user, customerId, id, form.get("name"));
    else if (intent === "remove") await removeCategory(context.db, user, customerId, id);
    else if (intent === "up" || intent === "down") await moveCategory(context.db, user, customerId, id, intent);
    else throw new AppError("bad_request", "Unknown action");
    return redirect(`/customers/${customerId}/enquiry_types?done=${intent === "remove" ? "removed" : "saved"}`);
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) return data({ intent, id, message: e.message }, { status: e.status });
    throw e;
  }
}

export default function EnquiryTypes() {
  const { customer, categories, notice } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const alerts: Alert[] = [];
  if (notice && !result) alerts.push({ type: "success", message: notice });
  const errorFor = (intent: string, id = 0) => (result && result.intent === intent && result.id === id ? result.message : null);
  const addError = errorFor("add");
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">Enquiry types of {customer.name}</h1>
      <Alerts alerts={alerts} />
      {result && !["add", "rename"].includes(result.intent) ? <Alerts alerts={[{ type: "error", message: result.message }]} /> : null}
      {categories.length === 0 ? (
        <p className="text-sm text-slate-600">This customer has no enquiry types yet.</p>
      ) : (
        <ol className="card divide-y divide-slate-100 p-0" data-testid="enquiry-types">
          {categories.map((c, i) => {
            const renameError = errorFor("rename", c.id);
            return (
              <li key={c.id} className="flex flex-wrap items-end gap-2 px-3 py-2">
                <Form method="post" className="flex flex-1 items-end gap-2" aria-label={`Rename ${c.name}`}>
                  <input type="hidden" name="id" value={c.id} />
                  <div className="flex-1">
                    <label htmlFor={`type-${c.id}`} className="label">
                      Type {i + 1}
                    </label>
                    <input id={`type-${c.id}`} name="name" defaultValue={c.name} className="input" aria-invalid={renameError ? true : undefined} aria-describedby={renameError ? `type-${c.id}-error` : undefined} />
                    {renameError ? (
                      <p id={`type-${c.id}-error`} className="field-error">
                        {renameError}
                      </p>
                    ) : null}
                  </div>
                  <button type="submit" name="intent" value="rename" className="btn">
                    Rename
                  </button>
                </Form>
                <Form method="post" className="flex gap-1" aria-label={`Order or remove ${c.name}`}>
                  <input type="hidden" name="id" value={c.id} />
                  <button type="submit" name="intent" value="up" className="btn" disabled={i === 0} aria-label={`Move ${c.name} up`}>
                    ↑
                  </button>
                  <button type="submit" name="intent" value="down" className="btn" disabled={i === categories.length - 1} aria-label={`Move ${c.name} down`}>
                    ↓
                  </button>
                  <button type="submit" name="intent" value="remove" className="btn" aria-label={`Remove ${c.name}`}>
                    Remove
                  </button>
                </Form>
              </li>
            );
          })}
        </ol>
      )}
      <Form method="post" className="card flex items-end gap-2" aria-label="Add an enquiry type">
        <div className="flex-1">
          <label htmlFor="new-type" className="label">
            New enquiry type
          </label>
          <input id="new-type" name="name" className="input" aria-invalid={addError ? true : undefined} aria-describedby={addError ? "new-type-error" : undefined} />
          {addError ? (
            <p id="new-type-error" className="field-error">
              {addError}
            </p>
          ) : null}
        </div>
        <button type="submit" name="intent" value="add" className="btn-primary">
          Add
        </button>
      </Form>
    </div>
  );
}
