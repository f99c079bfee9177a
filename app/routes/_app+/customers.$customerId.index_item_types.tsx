import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { CsvFileInput } from "~/components/CsvFileInput";
import { MoveButtons, OrderAnnouncement, useReorder } from "~/components/Reorder";
import { UploadErrors } from "~/components/UploadErrors";
import { requireUser } from "~/modules/auth/guard.server";
import { isAdmin } from "~/modules/auth/roles";
import { MESSAGES } from "~/modules/item-types/item-types";
import { itemTypeListAction } from "~/modules/item-types/list-actions.server";
import { canEditItemTypes, itemTypeCustomer, itemTypesOf } from "~/modules/item-types/item-types.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Item Types${d ? ` · ${d.customer.name}` : ""} · FreightDesk` }];

/** The customer's item types in their order (staff any customer; its own users theirs, other ids 404). `?deleted=1` after a detail's Delete. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const customerId = pageId(params.customerId);
  try {
    const customer = await itemTypeCustomer(context.db, user, customerId);
    const [itemTypes, crumbs] = await Promise.all([
      itemTypesOf(context.db, customerId),
      isAdmin(user) ? breadcrumbTrail(context.db, user, { model: "item_type", parent: "customer", parent_id: customerId }) : Promise.resolve([]),
    ]);
    const alerts: Alert[] = new URL(request.url).searchParams.has("deleted") ? [{ type: "success", message: MESSAGES.deleted }] : [];
    return { customer, itemTypes, crumbs, alerts, canEdit: canEditItemTypes(user) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Move up/down, the dragged order, Sort Alphabetically, Delete Selected and Import (a multipart file), each answered on this page. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const result = await itemTypeListAction(context.db, user, pageId(params.customerId), request);
  return data(result, { status: result.status });
}

type Outcome = Awaited<ReturnType<typeof itemTypeListAction>>;

export default function ItemTypesList() {
  const { customer, itemTypes, crumbs, alerts, canEdit } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>() as Outcome | undefined;
  const busy = useNavigation().state !== "idle";
  const { order, announcement, rowProps, step } = useReorder(itemTypes, (t) => t.description);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const base = `/customers/${customer.id}`;

  const allSelected = order.length > 0 && order.every((t) => selected.has(t.id));
  const toggle = (id: number) => setSelected((s) => new Set(s.has(id) ? [...s].filter((x) => x !== id) : [...s, id]));

  return (
    <div className="space-y-4" data-testid="item-types-list" data-hydrated={hydrated ? "true" : undefined}>
      <Breadcrumbs crumbs={crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Item Types: {customer.name}</h1>
        <div className="flex flex-wrap gap-2">
          {canEdit && (
            <Link to={`${base}/item_types`} className="btn-primary">
              New
            </Link>
          )}
          <a href={`/api${base}/item_types/export`} className="btn" download>
            Export
          </a>
          <a href={`/api${base}/item_types/export?template=1`} className="btn" download>
            Import Template
          </a>
          {canEdit && (
            <Form method="post">
              <button type="submit" name="intent" value="sort" className="btn" disabled={busy}>
                Sort Alphabetically
              </button>
            </Form>
          )}
        </div>
      </div>
      <Alerts alerts={outcome?.alerts ?? alerts} />
      <OrderAnnouncement text={announcement} />
      {outcome?.successes?.length ? (
        <section className="card" aria-label="Imported item types">
          <h2 className="font-semibold">Imported</h2>
          <ul className="text-sm">
            {outcome.successes.map((s) => (
              <li key={s.line}>
                line {s.line}: {s.description} ({s.name})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <UploadErrors lines={outcome?.errors ?? []} total={outcome?.errors?.length} />

      {canEdit && (
        <Form method="post" id="bulk-delete" onSubmit={(e) => (window.confirm("Delete the selected item types?") ? undefined : e.preventDefault())}>
          <input type="hidden" name="intent" value="bulk_delete" />
        </Form>
      )}
      {canEdit && <p className="text-sm text-slate-600">Drag a row, or use Move up and Move down (Alt+Arrow keys on a focused row), to change the order.</p>}
      <table className="w-full text-sm" aria-label="Item types">
        <thead>
          <tr className="text-left">
            {canEdit && (
              <th scope="col" className="w-8">
                <input type="checkbox" aria-label="Select all" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(order.map((t) => t.id)))} />
              </th>
            )}
            <th scope="col">Description</th>
            <th scope="col">Type</th>
            <th scope="col">L x W x H</th>
            <th scope="col">Weight</th>
            <th scope="col">Labels</th>
            {canEdit && <th scope="col">Order</th>}
          </tr>
        </thead>
        <tbody>
          {order.map((t, i) => (
            <tr key={t.id} data-testid="item-type-row" {...rowProps(i, canEdit)} className="border-t data-[dragging=true]:opacity-50">
              {canEdit && (
                <td>
                  <input type="checkbox" form="bulk-delete" name="bulk_item_types" value={t.id} aria-label={`Select ${t.description}`} checked={selected.has(t.id)} onChange={() => toggle(t.id)} />
                </td>
              )}
              <td>
                <Link to={`${base}/item_types/${t.id}`} className="text-sky-700 underline">
                  {t.description}
                </Link>
              </td>
              <td>{t.name}</td>
              <td>{[t.length, t.width, t.height].map((d) => d ?? "-").join(" x ")}</td>
              <td>{t.weight ?? "-"}</td>
              <td>{t.labels}</td>
              {canEdit && (
                <td>
                  <MoveButtons id={t.id} index={i} count={order.length} label={t.description} step={step} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!order.length && <p className="text-sm text-slate-600">There are no item types yet.</p>}
      {canEdit && (
        <div className="flex flex-wrap items-start gap-4">
          <button type="submit" form="bulk-delete" className="btn" disabled={busy}>
            Delete Selected
          </button>
          <Form method="post" encType="multipart/form-data" className="card flex flex-wrap items-end gap-2" aria-label="Import item types">
            <div>
              <label htmlFor="import-file" className="label">
                Import file (csv)
              </label>
              <CsvFileInput id="import-file" />
            </div>
            <button type="submit" name="intent" value="import" className="btn-primary" disabled={busy}>
              {busy ? "Importing..." : "Import"}
            </button>
          </Form>
        </div>
      )}
    </div>
  );
}
