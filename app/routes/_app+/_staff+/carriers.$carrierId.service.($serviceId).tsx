import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { FlagFields } from "~/components/admin/FlagFields";
import { SaveNewBack } from "~/components/admin/FormParts";
import { SERVICE_FLAGS, SERVICE_FLAG_LABELS, SERVICE_MESSAGES, SERVICE_TYPES } from "~/modules/carriers/admin";
import { MODE_LABELS, TRANSPORT_MODES } from "~/modules/emissions/factors-form";
import { carrierOf, createService, deleteService, getService, updateService } from "~/modules/carriers/services.server";
import { formValues, requireCarrierStaff, saveErrorData, screenRead } from "~/modules/carriers/screens.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.service ? `${d.service.name} · Service` : "New service"} · FreightDesk` }];

/** /carriers/{carrierId}/service: a new service; /carriers/{carrierId}/service/{serviceId}: that one. `?saved=1`: 'service was saved.' */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const serviceId = params.serviceId ? pageId(params.serviceId) : null;
  const carrier = await screenRead(() => carrierOf(context.db, user, carrierId));
  const service = serviceId ? await screenRead(() => getService(context.db, user, carrierId, serviceId)) : null;
  return { carrier, service, saved: new URL(request.url).searchParams.has("saved") };
}

const TEXT = ["code", "name", "type", "transport_mode", "group", "support_email", "route_code", "service_name_by_carrier", "service_code_by_carrier"] as const;

/** intent=save (create or change; a new code is renamed everywhere) or intent=delete (refused while consignments or accounts use it). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireCarrierStaff(context, request);
  const carrierId = pageId(params.carrierId);
  const id = params.serviceId ? pageId(params.serviceId) : null;
  const form = await readPageForm(request);
  const { values, ticked, body } = formValues(form, TEXT, SERVICE_FLAGS);
  try {
    if (form.get("intent") === "delete") {
      if (!id) throw new Response("Not Found", { status: 404 });
      await deleteService(context.db, user, carrierId, id);
      return redirect(`/carriers/${carrierId}/services?deleted=1`);
    }
    const saved = id ? await updateService(context.db, user, carrierId, id, body) : await createService(context.db, user, carrierId, body);
    return redirect(`/carriers/${carrierId}/service/${saved.id}?saved=1`);
  } catch (e) {
    return saveErrorData(e, SERVICE_MESSAGES.notSaved, { ...values, ...ticked });
  }
}

const NEW_DEFAULTS = new Set(["merging_enabled", "eligible_for_outbounds", "eligible_for_returns"]);

export default function ServiceEditor() {
  const { carrier, service, saved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const text = (k: (typeof TEXT)[number]) => values?.[k] ?? (service?.[k] as string | null | undefined) ?? "";
  const heading = service ? `Service: ${service.name}` : `New service of ${carrier.name}`;
  const back = `/carriers/${carrier.id}/services`;
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      <p className="text-sm text-slate-700">
        Carrier: {carrier.name} (<span data-testid="service-carrier-code">{carrier.code}</span>)
      </p>
      {result?.message ? <Alerts alerts={[{ type: "error", message: result.message }]} /> : saved ? <Alerts alerts={[{ type: "success", message: SERVICE_MESSAGES.saved }]} /> : null}
      <Form ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField name="code" label="Code" errors={errors} required maxLength={30} defaultValue={text("code")} />
          <TextField name="name" label="Name" errors={errors} required maxLength={100} defaultValue={text("name")} />
          <div>
            <label htmlFor="type" className="label">
              Type
            </label>
            <select id="type" name="type" className="input" defaultValue={text("type") || "general"} {...fieldAria(errors, "type")}>
              {SERVICE_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <FieldError id="type-error" errors={errors.type} />
          </div>
          <div>
            <label htmlFor="transport_mode" className="label">
              Transport mode
            </label>
            <select id="transport_mode" name="transport_mode" className="input" defaultValue={text("transport_mode") || "road"} {...fieldAria(errors, "transport_mode", true)}>
              {TRANSPORT_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
            <p id="transport_mode-hint" className="mt-1 text-xs text-slate-600">
              Chooses the emission factor of its consignments.
            </p>
            <FieldError id="transport_mode-error" errors={errors.transport_mode} />
          </div>
          <TextField name="group" label="Group" errors={errors} maxLength={100} defaultValue={text("group")} />
          <TextField name="support_email" label="Support e-mail" errors={errors} type="email" maxLength={255} defaultValue={text("support_email")} />
          <TextField name="route_code" label="Route code" errors={errors} maxLength={50} defaultValue={text("route_code")} />
          <TextField name="service_name_by_carrier" label="Carrier's name for the service" errors={errors} maxLength={100} defaultValue={text("service_name_by_carrier")} />
          <TextField name="service_code_by_carrier" label="Carrier's code for the service" errors={errors} maxLength={50} defaultValue={text("service_code_by_carrier")} />
        </div>
        <FlagFields
          legend="Options"
          flags={SERVICE_FLAGS}
          labels={SERVICE_FLAG_LABELS}
          errors={errors}
          checked={(f) => (values ? values[f] === true : service ? service[f] : NEW_DEFAULTS.has(f))}
          hints={{ pay_on_arrival: "The service is offered without a price (pay on arrival).", dangerous_goods_prohibited: "Never rated for a consignment with dangerous goods." }}
        />
        <SaveNewBack busy={busy} newTo={`/carriers/${carrier.id}/service`} backTo={back} />
        <input type="hidden" name="intent" value="save" />
      </Form>
      {service ? (
        <Form method="post" className="card" aria-label={`Delete ${service.name}`}>
          <button type="submit" name="intent" value="delete" className="btn-danger" disabled={busy}>
            Delete
          </button>
        </Form>
      ) : null}
    </div>
  );
}
