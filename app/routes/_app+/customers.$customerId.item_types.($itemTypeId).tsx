import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { Field, FieldError, FormErrors } from "~/components/Field";
import { DgItemLines } from "~/components/item-types/DgItemLines";
import { requireUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { DESCRIPTION_MAX, ITEM_TYPE_NAMES, itemTypeSchema, MESSAGES, PALLET_VENDORS, SOMS, type ItemTypeInput } from "~/modules/item-types/item-types";
import { canEditItemTypes, createItemType, deleteItemType, getItemType, itemTypeCustomer, itemTypeSites, updateItemType } from "~/modules/item-types/item-types.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.itemType ? d.itemType.description : "New item type"} · FreightDesk` }];

/** /customers/{id}/item_types: a new item type; /customers/{id}/item_types/{itemTypeId}: that one. `?saved=1`: "Item type was saved.". */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const customerId = pageId(params.customerId);
  const id = params.itemTypeId ? pageId(params.itemTypeId) : null;
  try {
    const customer = await itemTypeCustomer(context.db, user, customerId);
    const [itemType, sites, crumbs] = await Promise.all([
      id ? getItemType(context.db, user, customerId, id) : null,
      itemTypeSites(context.db, customerId),
      isAdmin(user) ? breadcrumbTrail(context.db, user, id ? { model: "item_type", id, parent: "customer", parent_id: customerId } : { model: "item_type", parent: "customer", parent_id: customerId }) : Promise.resolve([]),
    ]);
    const alerts: Alert[] = new URL(request.url).searchParams.has("saved") ? [{ type: "success", message: MESSAGES.saved }] : [];
    return { customer, itemType, sites, crumbs: id ? crumbs : [...crumbs, { label: "New", url: "" }], alerts, canEdit: canEditItemTypes(user) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Save (create or change, then the item type again with "Item type was saved.") or Delete (back to the list). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const customerId = pageId(params.customerId);
  const id = params.itemTypeId ? pageId(params.itemTypeId) : null;
  const form = await readPageForm(request);
  const submission = parseWithZod(form, { schema: itemTypeSchema, disableAutoCoercion: true });
  try {
    if (form.get("intent") === "delete" && id) {
      await deleteItemType(context.db, user, customerId, id);
      return redirect(`/customers/${customerId}/index_item_types?deleted=1`);
    }
    if (submission.status !== "success") return { result: submission.reply() };
    // unticked boxes and no dangerous goods lines are not posted: they are false and none
    const payload = { ...submission.payload, has_dangerous_goods: form.get("has_dangerous_goods") ?? false, manual_handling: form.get("manual_handling") ?? false, preselected_dg_items: submission.payload.preselected_dg_items ?? [] };
    const saved = id ? await updateItemType(context.db, user, customerId, id, payload) : await createItemType(context.db, user, customerId, payload);
    return redirect(`/customers/${customerId}/item_types/${saved.id}?saved=1`);
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return { result: submission.reply({ fieldErrors: e.code === "invalid" ? e.fieldErrors : {}, formErrors: e.code === "invalid" ? [] : [e.message] }) };
  }
}

function Select({ label, field, options, disabled }: { label: string; field: FieldMetadata<string | undefined>; options: Array<{ value: string | number; label: string }>; disabled?: boolean }) {
  return (
    <div>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <select {...getSelectProps(field)} key={field.key} className="input" disabled={disabled}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={field.errorId} errors={field.errors?.slice(0, 1)} />
    </div>
  );
}

function Check({ label, field }: { label: string; field: FieldMetadata<string | undefined> }) {
  return (
    <label htmlFor={field.id} className="flex items-center gap-2 text-sm">
      <input {...getInputProps(field, { type: "checkbox" })} key={field.key} />
      {label}
    </label>
  );
}

/** The form's fields as posted (text); the schema turns them into the item type. */
type FormShape = Record<"name" | "description" | "som" | "pallet_vendor" | "site_id" | "length" | "width" | "height" | "weight" | "increments" | "labels", string> & {
  has_dangerous_goods?: string;
  manual_handling?: string;
};

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

export default function ItemTypeDetail() {
  const loaded = useLoaderData<typeof loader>();
  // keyed by what is stored: after a save the fields start again from the saved item type
  return <ItemTypeForm key={JSON.stringify(loaded.itemType)} {...loaded} />;
}

function ItemTypeForm({ customer, itemType, sites, crumbs, alerts, canEdit }: Loaded) {
  const data = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const t = itemType;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [form, fields] = useForm<FormShape, ItemTypeInput>({
    id: `item-type-${t?.id ?? "new"}`,
    lastResult: data?.result,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: itemTypeSchema, disableAutoCoercion: true }),
    // spec 2 section 5: a new item type is a Carton with 1 label, Plain vendor, metric
    defaultValue: {
      name: t?.name ?? "Carton",
      description: t?.description ?? "",
      som: t?.som ?? "metric",
      pallet_vendor: String(t?.pallet_vendor ?? 0),
      site_id: t?.site_id ? String(t.site_id) : "",
      length: t?.length ?? "",
      width: t?.width ?? "",
      height: t?.height ?? "",
      weight: t?.weight ?? "",
      increments: t?.increments ?? "1",
      labels: String(t?.labels ?? 1),
      has_dangerous_goods: t?.has_dangerous_goods ? "on" : undefined,
      manual_handling: t?.item_type_options.manual_handling ? "on" : undefined,
    },
  });
  const base = `/customers/${customer.id}`;
  const heading = t ? `Item type: ${t.description}` : "New item type";
  const num = (label: string, field: FieldMetadata<string | undefined>, max: number, hint?: string) => (
    <Field label={label} field={field} inputMode="decimal" maxLength={max} title={hint} />
  );
  return (
    <div className="max-w-3xl space-y-4" data-testid="item-type-detail" data-hydrated={hydrated ? "true" : undefined}>
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={alerts} />
      <Form method="post" {...getFormProps(form)} key={t?.id ?? "new"} className="card space-y-3" aria-label={heading}>
        <FormErrors errors={form.errors} />
        <fieldset disabled={!canEdit} className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <div className="md:col-span-3">
            <Field label="Description" field={fields.description} maxLength={DESCRIPTION_MAX} />
          </div>
          <Select label="Type" field={fields.name} options={ITEM_TYPE_NAMES.map((n) => ({ value: n, label: n }))} />
          <Select label="Unit of measurement" field={fields.som} options={SOMS.map((s) => ({ value: s, label: s === "metric" ? "Metric" : "Imperial" }))} />
          <Select label="Pallet vendor" field={fields.pallet_vendor} options={PALLET_VENDORS.map((p, i) => ({ value: String(i), label: p }))} />
          <Select label="Site (optional)" field={fields.site_id} options={[{ value: "", label: "Any site" }, ...sites.map((s) => ({ value: String(s.id), label: s.name }))]} />
          {num("Length", fields.length, 7)}
          {num("Width", fields.width, 7)}
          {num("Height", fields.height, 7)}
          {num("Weight", fields.weight, 9, "Rounded up to the increments")}
          {num("Increments", fields.increments, 9)}
          <Field label="Label count" field={fields.labels} inputMode="numeric" maxLength={2} />
          <div className="flex flex-col gap-2 md:col-span-3">
            <Check label="Requires manual handling" field={fields.manual_handling} />
            <Check label="Dangerous goods" field={fields.has_dangerous_goods} />
          </div>
          <div className="md:col-span-3">
            <DgItemLines initial={t?.preselected_dg_items ?? []} errors={form.allErrors} />
          </div>
        </fieldset>
        <div className="flex flex-wrap items-center gap-2">
          {canEdit && (
            <button type="submit" className="btn-primary" disabled={busy}>
              Save
            </button>
          )}
          {canEdit && (
            <Link to={`${base}/item_types`} className="btn">
              New
            </Link>
          )}
          {canEdit && t && (
            <button type="submit" name="intent" value="delete" formNoValidate className="btn" disabled={busy} onClick={(e) => (window.confirm(`Delete ${t.description}?`) ? undefined : e.preventDefault())}>
              Delete
            </button>
          )}
          <Link to={`${base}/index_item_types`} className="btn">
            Back to item types
          </Link>
        </div>
      </Form>
    </div>
  );
}
