import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { FlagFields } from "~/components/admin/FlagFields";
import { SaveNewBack } from "~/components/admin/FormParts";
import { EmissionFactorsForm } from "~/components/admin/EmissionFactorsForm";
import { factorsFromForm } from "~/modules/emissions/factors-form";
import { getCarrierFactors, setCarrierFactors } from "~/modules/emissions/factors.server";
import { ADAPTER_KINDS, ADAPTER_LABELS, CARRIER_FLAGS, CARRIER_FLAG_LABELS, CARRIER_MESSAGES } from "~/modules/carriers/admin";
import { createCarrier, deleteCarrier, getCarrier, updateCarrier } from "~/modules/carriers/admin.server";
import { formValues, requireCarrierStaff, saveErrorData, screenRead } from "~/modules/carriers/screens.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.carrier ? `${d.carrier.name} · Carrier` : "New carrier"} · FreightDesk` }];

/** /carrier: a new carrier; /carrier/{id}: that one (404 when there is none). `?saved=1` says 'Carrier was saved.' */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const saved = new URL(request.url).searchParams.has("saved");
  if (!params.id) return { carrier: null, factors: null, saved: false };
  const id = pageId(params.id);
  const carrier = await screenRead(() => getCarrier(context.db, user, id));
  return { carrier, factors: await getCarrierFactors(context.db, user, carrier.id), saved };
}

const TEXT = ["name", "code", "web_url", "default_email", "note", "adapter"] as const;

/**
 * intent=save or intent=delete. The two confirmations of spec 2 section 5 are boxes the server asks
 * for when needed: turning app carrier on (it overrides any integration) and changing an existing
 * carrier's code (it is renamed everywhere, customers' notification configs and accounts included).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const id = params.id ? pageId(params.id) : null;
  const form = await readPageForm(request);
  const { values, ticked, body } = formValues(form, TEXT, CARRIER_FLAGS);
  const confirm = { appCarrier: form.get("confirm_app_carrier") === "on", rename: form.get("confirm_rename") === "on" };
  if (form.get("intent") === "emission_factors") {
    if (!id) throw new Response("Not Found", { status: 404 });
    const factors = factorsFromForm(form);
    try {
      await setCarrierFactors(context.db, context.queue, user, id, factors.body);
      return redirect(`/carrier/${id}?saved=1`);
    } catch (e) {
      return saveErrorData(e, CARRIER_MESSAGES.notSaved, factors.values);
    }
  }
  try {
    if (form.get("intent") === "delete") {
      if (!id) throw new Response("Not Found", { status: 404 });
      await deleteCarrier(context.db, user, id);
      return redirect("/carriers?deleted=1");
    }
    const saved = id ? await updateCarrier(context.db, user, id, body, confirm) : await createCarrier(context.db, user, body, confirm);
    return redirect(`/carrier/${saved.id}?saved=1`);
  } catch (e) {
    return saveErrorData(e, CARRIER_MESSAGES.notSaved, { ...values, ...ticked });
  }
}

export default function CarrierEditor() {
  const { carrier, factors, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  // the emission factors form answers with its own fields' values; the carrier form keeps its own
  const factorValues = result?.values && "road.g_per_tkm" in result.values ? (result.values as Record<string, string>) : null;
  const factorErrors: FieldErrors = factorValues ? (result?.errors ?? {}) : {};
  const errors: FieldErrors = factorValues ? {} : (result?.errors ?? {});
  const values = factorValues ? null : (result?.values ?? null);
  const form = useFocusFirstInvalid(result?.errors);
  const text = (k: (typeof TEXT)[number]) => values?.[k] ?? (carrier?.[k] as string | null | undefined) ?? "";
  const asksAppCarrier = errors.app_carrier?.includes(CARRIER_MESSAGES.confirmAppCarrier);
  const asksRename = errors.code?.includes(CARRIER_MESSAGES.confirmRename);
  const heading = carrier ? `Carrier: ${carrier.name}` : "New carrier";
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      {result?.message ? <Alerts alerts={[{ type: "error", message: result.message }]} /> : saved ? <Alerts alerts={[{ type: "success", message: CARRIER_MESSAGES.saved }]} /> : null}
      {carrier ? (
        <nav aria-label="Carrier" className="flex flex-wrap gap-2">
          <Link to={`/carriers/${carrier.id}/services`} className="btn">
            Services ({carrier.services_count})
          </Link>
          <Link to={`/carriers/${carrier.id}/carrier-account-validations`} className="btn">
            Account Validations
          </Link>
        </nav>
      ) : null}
      <Form ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <TextField name="name" label="Name" errors={errors} required maxLength={100} defaultValue={text("name")} />
        <TextField name="code" label="Code (rates service key)" errors={errors} required maxLength={30} defaultValue={text("code")} hint="Names the carrier in rate cards, zones and imports; a change renames it everywhere." />
        {asksRename ? (
          <div className="flex items-center gap-2">
            <input id="confirm_rename" name="confirm_rename" type="checkbox" />
            <label htmlFor="confirm_rename">Confirm: rename {carrier?.code} everywhere it is used (accounts, customers&apos; notification configs, rate cards, zones and consignments)</label>
          </div>
        ) : null}
        <TextField name="web_url" label="Web URL" errors={errors} type="url" maxLength={500} defaultValue={text("web_url")} />
        <TextField name="default_email" label="Default support e-mail" errors={errors} type="email" maxLength={255} defaultValue={text("default_email")} />
        <div>
          <label htmlFor="note" className="label">
            Notes
          </label>
          <textarea id="note" name="note" rows={3} maxLength={2000} className="input" defaultValue={text("note")} {...fieldAria(errors, "note")} />
          <FieldError id="note-error" errors={errors.note} />
        </div>
        <div>
          <label htmlFor="adapter" className="label">
            Adapter
          </label>
          <select id="adapter" name="adapter" className="input" defaultValue={text("adapter") || "generic"} {...fieldAria(errors, "adapter", true)}>
            {ADAPTER_KINDS.map((k) => (
              <option key={k} value={k}>
                {ADAPTER_LABELS[k]}
              </option>
            ))}
          </select>
          <p id="adapter-hint" className="mt-1 text-xs text-slate-600">
            How manifests are despatched, pickups booked and consignments cancelled with this carrier.
          </p>
          <FieldError id="adapter-error" errors={errors.adapter} />
        </div>
        <FlagFields
          legend="Options"
          flags={CARRIER_FLAGS}
          labels={CARRIER_FLAG_LABELS}
          errors={errors}
          checked={(f) => (values ? values[f] === true : carrier ? carrier[f] : f === "gs1_compliant")}
          hints={{ generic: "Generic and app carrier cannot both be ticked.", app_carrier: "An app carrier overrides any integration." }}
        />
        {asksAppCarrier ? (
          <div className="flex items-center gap-2">
            <input id="confirm_app_carrier" name="confirm_app_carrier" type="checkbox" />
            <label htmlFor="confirm_app_carrier">Confirm: make this an app carrier, overriding any integration</label>
          </div>
        ) : null}
        <SaveNewBack busy={busy} newTo="/carrier" backTo="/carriers" />
        <input type="hidden" name="intent" value="save" />
      </Form>
      {factors ? <EmissionFactorsForm factors={factors} errors={factorErrors} values={factorValues} busy={busy} /> : null}
      {carrier ? (
        <Form method="post" className="card space-y-2" aria-label={`Delete ${carrier.name}`}>
          <p className="text-sm text-slate-700">
            {carrier.accounts_count + carrier.consignments_count === 0
              ? "No carrier account or consignment uses this carrier."
              : `Used by ${carrier.accounts_count} carrier account(s) and ${carrier.consignments_count} consignment(s): it cannot be deleted while any use it.`}
          </p>
          <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
            Delete
          </button>
        </Form>
      ) : null}
    </div>
  );
}
