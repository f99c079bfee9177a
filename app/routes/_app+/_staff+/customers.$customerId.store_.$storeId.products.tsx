import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { CsvFileInput } from "~/components/CsvFileInput";
import { FieldError, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { UploadErrors } from "~/components/UploadErrors";
import { requireStaff } from "~/modules/auth/guard.server";
import { nest } from "~/modules/consignments/form";
import { MAX_DIMENSION, MAX_WEIGHT } from "~/modules/rating/payload";
import { importStoreProducts } from "~/modules/stores/products-import.server";
import { PRODUCT_CSV_COLUMNS, STORE_MESSAGES } from "~/modules/stores/stores";
import { storeProductsScreen, updateStoreProducts } from "~/modules/stores/stores.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";
import { MAX_UPLOAD_BYTES, FILE_TOO_LARGE } from "~/utils/upload-limits";

export const meta: MetaFunction = () => [{ title: "Store products · FreightDesk" }];

/** /customers/{customerId}/store/{storeId}/products: the store's products (404 unless the store is the customer's). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  try {
    return { customerId: pageId(params.customerId), ...(await storeProductsScreen(context.db, user, pageId(params.customerId), pageId(params.storeId))) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

type Outcome = { alerts: Alert[]; skipped: Array<{ line: number; errors: string[] }>; skippedTotal: number; errors: FieldErrors; values: Record<string, string> | null };
const outcome = (o: Partial<Outcome>, status = 200) => data<Outcome>({ alerts: [], skipped: [], skippedTotal: 0, errors: {}, values: null, ...o }, { status });
const failed = (message: string, status: number, o: Partial<Outcome> = {}) => outcome({ alerts: [{ type: "error", message }], ...o }, status);

/** intent=import: the CSV file (products updated by SKU, skipped lines listed); intent=save: the edited products. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const storeId = pageId(params.storeId);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES + 64 * 1024) return failed(`${STORE_MESSAGES.importNotStarted} ${FILE_TOO_LARGE}`, 413);
  const form = await readPageForm(request);
  if (form.get("intent") === "import") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0 || !/\.csv$/i.test(file.name)) return failed(`${STORE_MESSAGES.importNotStarted} Choose a csv file to import.`, 422);
    if (file.size > MAX_UPLOAD_BYTES) return failed(`${STORE_MESSAGES.importNotStarted} ${FILE_TOO_LARGE}`, 413);
    try {
      const report = await importStoreProducts(context.db, user, customerId, await file.text(), storeId);
      const summary = `${STORE_MESSAGES.imported}: ${report.created} added, ${report.updated} updated, ${report.skipped_total} skipped.`;
      return outcome({ alerts: [{ type: report.skipped_total ? "warning" : "success", message: summary }], skipped: report.skipped, skippedTotal: report.skipped_total });
    } catch (e) {
      throwIfAccessError(e);
      if (!(e instanceof AppError)) throw e;
      return failed(`${STORE_MESSAGES.importFailed}: ${e.message}`, e.status);
    }
  }
  const entries = [...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && e[0] !== "intent");
  try {
    await updateStoreProducts(context.db, user, customerId, nest(entries), storeId);
    return outcome({ alerts: [{ type: "success", message: STORE_MESSAGES.productsSaved }] });
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return failed(e.code === "invalid" ? STORE_MESSAGES.productsFailed : e.message, e.status, { errors: e.fieldErrors, values: Object.fromEntries(entries) });
  }
}

const MEASURES = [
  ["length", "Length (cm)", MAX_DIMENSION],
  ["width", "Width (cm)", MAX_DIMENSION],
  ["height", "Height (cm)", MAX_DIMENSION],
  ["weight", "Dead weight (kg)", MAX_WEIGHT],
] as const;

export default function StoreProducts() {
  const { customerId, store, products, itemTypes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const form = useFocusFirstInvalid(result?.errors);
  const value = (i: number, key: string, fallback: number | string | null) => values?.[`products.${i}.${key}`] ?? (fallback === null ? "" : String(fallback));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Store products ({store.external_id})</h1>
        <Link to={`/customers/${customerId}/store/${store.id}`} className="btn">
          Back to store
        </Link>
      </div>
      <Alerts alerts={result?.alerts ?? []} />
      <UploadErrors lines={result?.skipped ?? []} total={result?.skippedTotal} />
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Import products">
        <h2 className="font-semibold">Import products</h2>
        <p id="import-file-hint" className="text-sm text-slate-600">
          A csv file with the columns {PRODUCT_CSV_COLUMNS.join(", ")} (sku and name required; item type by its description; sizes in cm up to {MAX_DIMENSION}, weight in kg up to {MAX_WEIGHT}). A product
          already in the store (same SKU, case aside) is updated; lines with errors are skipped and listed.
        </p>
        <label htmlFor="import-file" className="label">
          File
        </label>
        <CsvFileInput id="import-file" />
        <button type="submit" name="intent" value="import" className="btn-primary" disabled={busy}>
          {navigation.formData?.get("intent") === "import" ? "Importing..." : "Import"}
        </button>
      </Form>
      {products.length === 0 ? (
        <p className="card text-sm text-slate-700">The store has no products yet: import them from a csv file.</p>
      ) : (
        <Form ref={form} method="post" className="card space-y-3" aria-label="Products">
          <table className="w-full text-sm">
            <caption className="sr-only">Products of the store, by SKU</caption>
            <thead>
              <tr className="text-left">
                <th scope="col">SKU</th>
                <th scope="col">Name</th>
                <th scope="col">Item type</th>
                {MEASURES.map(([key, label]) => (
                  <th key={key} scope="col">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {products.map((p, i) => (
                <tr key={p.id}>
                  <td>
                    {p.sku}
                    <input type="hidden" name={`products.${i}.id`} value={p.id} />
                  </td>
                  <td>
                    <input aria-label={`Name of ${p.sku}`} className="input" value={p.name} disabled />
                  </td>
                  <td>
                    <select name={`products.${i}.item_type_id`} aria-label={`Item type of ${p.sku}`} className="input" defaultValue={value(i, "item_type_id", p.item_type_id)} {...fieldAria(errors, `products.${i}.item_type_id`)}>
                      <option value="">None</option>
                      {itemTypes.map((t) => (
                        <option key={t.id} value={t.id}>
                          {t.description}
                        </option>
                      ))}
                    </select>
                    <FieldError id={`products.${i}.item_type_id-error`} errors={errors[`products.${i}.item_type_id`]} />
                  </td>
                  {MEASURES.map(([key, label, max]) => (
                    <td key={key}>
                      <input
                        name={`products.${i}.${key}`}
                        aria-label={`${label} of ${p.sku}`}
                        className="input w-24"
                        type="number"
                        min={0}
                        max={max}
                        step="any"
                        inputMode="decimal"
                        defaultValue={value(i, key, p[key])}
                        {...fieldAria(errors, `products.${i}.${key}`)}
                      />
                      <FieldError id={`products.${i}.${key}-error`} errors={errors[`products.${i}.${key}`]} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
            Save
          </button>
        </Form>
      )}
    </div>
  );
}
