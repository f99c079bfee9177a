import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Alerts } from "~/components/Alerts";
import { FieldError, TextField, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { requireStaff } from "~/modules/auth/guard.server";
import { CART_TYPES, CART_TYPE_LABELS, RATE_PRESENTATIONS, RATE_PRESENTATION_LABELS, STORE_MESSAGES } from "~/modules/stores/stores";
import { customerStore, saveStore, storeJson, storeSites } from "~/modules/stores/stores.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import type { FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { formErrorData, throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `Store · ${d?.customerName ?? "Customer"} · FreightDesk` }];

/** /customers/{customerId}/store: the customer's store (or a new one); /store/{storeId}: that store, 404 unless it is the customer's. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  try {
    const customer = await customerForStaff(context.db, user, customerId);
    const store = await customerStore(context.db, user, customerId, params.storeId ? pageId(params.storeId) : null);
    return { customerId, customerName: customer.name, store: store ? storeJson(store) : null, sites: await storeSites(context.db, customerId) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const FIELDS = ["cart_type", "rate_presentation", "site_id", "external_id"] as const;

/**
 * Save (intent=save) or Generate new key (intent=generate_key). Answered in place rather than
 * redirected: a new key is in this answer only, shown once and never readable again.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const form = await readPageForm(request);
  const values = Object.fromEntries(FIELDS.map((k) => [k, String(form.get(k) ?? "")])) as Record<(typeof FIELDS)[number], string>;
  try {
    const body = { ...values, generate_key: form.get("intent") === "generate_key" };
    const saved = await saveStore(context.db, user, customerId, body, params.storeId ? pageId(params.storeId) : null);
    return data({ saved: true as const, store: saved.store, apiKey: saved.api_key ?? null, message: null, errors: {} as FieldErrors, values: null }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return formErrorData(e, STORE_MESSAGES.failed, values);
  }
}

export default function StoreSetup() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const saved = result && "saved" in result ? result : null;
  const store = saved?.store ?? loaded.store;
  const errors: FieldErrors = result?.errors ?? {};
  const values = result && !saved ? result.values : null;
  const form = useFocusFirstInvalid(result?.errors);
  const newKey = useRef<HTMLInputElement>(null);
  // the key is shown this once: focus takes the person to it (issue 31 #9)
  useEffect(() => {
    if (saved?.apiKey) newKey.current?.focus();
  }, [saved?.apiKey]);
  const heading = store ? `Online store: ${loaded.customerName}` : `Set up an online store: ${loaded.customerName}`;
  const alerts = saved ? [{ type: "success" as const, message: STORE_MESSAGES.saved }] : result?.message ? [{ type: "error" as const, message: result.message }] : [];
  const pick = (k: (typeof FIELDS)[number], fallback: string) => values?.[k] ?? fallback;
  return (
    <div className="max-w-2xl space-y-4">
      <h1 className="text-xl font-semibold">{heading}</h1>
      <Alerts alerts={alerts} />
      {saved?.apiKey && (
        <section className="card space-y-2 border-amber-400" aria-labelledby="new-key-heading">
          <h2 id="new-key-heading" className="font-semibold">
            New API key
          </h2>
          <label htmlFor="new-api-key" className="label">
            API key (shown once)
          </label>
          <input ref={newKey} id="new-api-key" readOnly value={saved.apiKey} className="input font-mono" aria-describedby="new-api-key-hint" onFocus={(e) => e.currentTarget.select()} />
          <p id="new-api-key-hint" className="text-sm text-slate-700">
            {STORE_MESSAGES.keyShownOnce} The cart sends it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>/api/store/{saved.store.external_id}/rates</code>.
          </p>
        </section>
      )}
      <Form ref={form} method="post" className="card space-y-3" aria-label={heading}>
        <div>
          <label htmlFor="cart_type" className="label">
            Cart type
          </label>
          <select id="cart_type" name="cart_type" className="input w-56" defaultValue={pick("cart_type", store?.cart_type ?? "shopify")} {...fieldAria(errors, "cart_type")}>
            {CART_TYPES.map((c) => (
              <option key={c} value={c}>
                {CART_TYPE_LABELS[c]}
              </option>
            ))}
          </select>
          <FieldError id="cart_type-error" errors={errors.cart_type} />
        </div>
        <fieldset>
          <legend className="label">Rate presentation</legend>
          {RATE_PRESENTATIONS.map((r) => (
            <label key={r} className="flex items-center gap-2 text-sm">
              <input type="radio" name="rate_presentation" value={r} defaultChecked={pick("rate_presentation", store?.rate_presentation ?? "full_list") === r} />
              {RATE_PRESENTATION_LABELS[r]}
            </label>
          ))}
          <FieldError id="rate_presentation-error" errors={errors.rate_presentation} />
        </fieldset>
        <div>
          <label htmlFor="site_id" className="label">
            Site
          </label>
          <select id="site_id" name="site_id" className="input w-72" required defaultValue={pick("site_id", String(store?.site_id ?? ""))} {...fieldAria(errors, "site_id", true)}>
            <option value="">Choose a site</option>
            {loaded.sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.code})
              </option>
            ))}
          </select>
          <p id="site_id-hint" className="mt-1 text-xs text-slate-600">
            The goods leave from this site, and its carrier services rate the cart.
          </p>
          <FieldError id="site_id-error" errors={errors.site_id} />
        </div>
        <TextField
          name="external_id"
          label="External id"
          errors={errors}
          required
          maxLength={100}
          hint="The store's id in its cart; it names the store in the checkout-rates address."
          defaultValue={pick("external_id", store?.external_id ?? "")}
        />
        <div>
          <p className="label">API key</p>
          <p className="text-sm text-slate-700">{store ? `A key ending in ${store.api_key_hint} is set.` : "A key is made when the store is saved, and shown once."}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
            Save
          </button>
          {store && (
            <button type="submit" name="intent" value="generate_key" className="btn" disabled={busy}>
              Generate new key
            </button>
          )}
          {store && (
            <Link to={`/customers/${loaded.customerId}/store/${store.id}/products`} className="btn">
              Products
            </Link>
          )}
          <Link to={`/customers/${loaded.customerId}`} className="btn">
            Back
          </Link>
        </div>
      </Form>
    </div>
  );
}
