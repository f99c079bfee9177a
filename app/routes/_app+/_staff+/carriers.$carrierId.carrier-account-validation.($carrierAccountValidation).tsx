import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { SaveNewBack } from "~/components/admin/FormParts";
import { VALIDATION_FIELDS, VALIDATION_MESSAGES, VALIDATION_MODIFIERS, VALIDATION_RULES } from "~/modules/carriers/admin";
import { passesValidation } from "~/modules/customers/accounts";
import { carrierOf } from "~/modules/carriers/services.server";
import { createValidation, deleteValidation, getValidation, updateValidation } from "~/modules/carriers/validations.server";
import { formValues, requireCarrierStaff, saveErrorData, screenRead } from "~/modules/carriers/screens.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Account validation · FreightDesk" }];

/** A new validation, or one of the carrier's; `?try=value` checks a value against the saved rule as an account save would. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const id = params.carrierAccountValidation ? pageId(params.carrierAccountValidation) : null;
  const url = new URL(request.url);
  const carrier = await screenRead(() => carrierOf(context.db, user, carrierId));
  const validation = id ? await screenRead(() => getValidation(context.db, user, carrierId, id)) : null;
  const tried = url.searchParams.get("try");
  const trial = validation && tried !== null ? { value: tried.slice(0, 200), passes: passesValidation(tried.slice(0, 200), validation) } : null;
  return { carrier, validation, trial, saved: url.searchParams.has("saved") };
}

const TEXT = ["field", "rule", "modifier", "validation", "message"] as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const id = params.carrierAccountValidation ? pageId(params.carrierAccountValidation) : null;
  const form = await readPageForm(request);
  const { values, body } = formValues(form, TEXT, []);
  try {
    if (form.get("intent") === "delete") {
      if (!id) throw new Response("Not Found", { status: 404 });
      await deleteValidation(context.db, user, carrierId, id);
      return redirect(`/carriers/${carrierId}/carrier-account-validations?deleted=1`);
    }
    const saved = id ? await updateValidation(context.db, user, carrierId, id, body) : await createValidation(context.db, user, carrierId, body);
    return redirect(`/carriers/${carrierId}/carrier-account-validation/${saved.id}?saved=1`);
  } catch (e) {
    return saveErrorData(e, VALIDATION_MESSAGES.notSaved, values);
  }
}

function Select({ name, label, options, value, errors }: { name: string; label: string; options: readonly string[]; value: string; errors: FieldErrors }) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <select id={name} name={name} className="input" defaultValue={value} required {...fieldAria(errors, name)}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
}

export default function ValidationEditor() {
  const { carrier, validation, trial, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const v = (k: (typeof TEXT)[number]) => values?.[k] ?? validation?.[k] ?? "";
  const heading = validation ? `Account validation of ${carrier.name}` : `New account validation of ${carrier.name}`;
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      {result?.message ? <Alerts alerts={[{ type: "error", message: result.message }]} /> : saved ? <Alerts alerts={[{ type: "success", message: VALIDATION_MESSAGES.saved }]} /> : null}
      <Form ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <Select name="field" label="Field" options={VALIDATION_FIELDS} value={v("field")} errors={errors} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Select name="rule" label="Rule" options={VALIDATION_RULES} value={v("rule")} errors={errors} />
          <Select name="modifier" label="Modifier" options={VALIDATION_MODIFIERS} value={v("modifier")} errors={errors} />
        </div>
        <TextField name="validation" label="Values" errors={errors} required maxLength={1000} defaultValue={v("validation")} hint="Case sensitive; comma separated for 'in' (one of). The length rule counts characters." />
        <TextField name="message" label="Message" errors={errors} required maxLength={255} defaultValue={v("message")} hint="Shown on the account's field when a save fails this rule." />
        <SaveNewBack busy={busy} newTo={`/carriers/${carrier.id}/carrier-account-validation`} backTo={`/carriers/${carrier.id}/carrier-account-validations`} />
        <input type="hidden" name="intent" value="save" />
      </Form>
      {validation ? (
        <>
          <Form method="get" className="card flex flex-wrap items-end gap-2" aria-label="Try a value">
            <div>
              <label htmlFor="try" className="label">
                Try a value
              </label>
              <input id="try" name="try" className="input w-64" maxLength={200} defaultValue={trial?.value ?? ""} />
            </div>
            <button type="submit" className="btn">
              Check
            </button>
            {trial ? (
              <p role="status" className="text-sm">
                {trial.passes ? `'${trial.value}' passes.` : `'${trial.value}' fails: ${validation.message}`}
              </p>
            ) : null}
          </Form>
          <Form method="post" className="card" aria-label="Delete validation">
            <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
              Delete
            </button>
          </Form>
        </>
      ) : null}
    </div>
  );
}
