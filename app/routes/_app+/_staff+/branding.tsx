import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { FieldError, fieldAria, useFocusFirstInvalid } from "~/components/Field";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { BRANDING_COUNTRIES, BRANDING_ENVIRONMENTS, BRANDING_NOT_SAVED, BRANDING_SAVED } from "~/modules/branding/branding";
import { brandingChoices, listBrandings, saveBranding } from "~/modules/branding/branding.server";
import type { FieldErrors } from "~/utils/errors";
import { MAX_ID } from "~/utils/ids";
import { readPageForm } from "~/utils/http.server";
import { formErrorData, throwIfAccessError } from "~/utils/ui.server";
import { MAX_IMAGE_BYTES } from "~/utils/upload-limits";

export const meta: MetaFunction = () => [{ title: "Branding · FreightDesk" }];

/** Admins (not customer service) and super admins: the path rule says so, and this route again. */
async function requireBrander(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.branding(signed.user)) throw redirect("/");
  return signed;
}

const customerIdOf = (raw: string | null, fallback: number) => {
  const id = Number(raw);
  return raw && /^\d+$/.test(raw) && id >= 1 && id <= MAX_ID ? id : fallback;
};

/** /branding?customer_id=: that customer's brandings (the working customer's by default); `?saved=1` says 'Branding was saved.'. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireBrander(context, request);
  const params = new URL(request.url).searchParams;
  try {
    const choices = await brandingChoices(context.db, user, customerIdOf(params.get("customer_id"), user.customer.id));
    const brandings = await listBrandings(context.db, user, choices.customer.id);
    const alerts: Alert[] = params.has("saved") ? [{ type: "success", message: BRANDING_SAVED }] : [];
    return { ...choices, brandings, alerts };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireBrander(context, request);
  const form = await readPageForm(request);
  const customerId = customerIdOf(String(form.get("customer_id") ?? ""), 0);
  const values = { country_code: String(form.get("country_code") ?? ""), env: String(form.get("env") ?? ""), site_id: String(form.get("site_id") ?? "") };
  try {
    await saveBranding(context.db, user, customerId, form);
    return redirect(`/branding?customer_id=${customerId}&saved=1`);
  } catch (e) {
    return formErrorData(e, BRANDING_NOT_SAVED, values);
  }
}

const ENV_LABELS: Record<(typeof BRANDING_ENVIRONMENTS)[number], string> = { development: "Development", qa: "QA", uat: "UAT", production: "Production" };
const ACCEPT = ".png,.jpg,.jpeg,.svg,image/png,image/jpeg,image/svg+xml";

function ImageInput({ name, label, errors }: { name: string; label: string; errors: FieldErrors }) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <input
        id={name}
        name={name}
        type="file"
        accept={ACCEPT}
        className="text-sm"
        {...fieldAria(errors, name, true)}
        onChange={(event) => {
          // refused as soon as chosen with JavaScript; without it the server's own check answers
          const input = event.currentTarget;
          const file = input.files?.[0];
          input.setCustomValidity(file && file.size > MAX_IMAGE_BYTES ? `Images must be ${MAX_IMAGE_BYTES / 1024 / 1024} MB or smaller.` : "");
          input.reportValidity();
        }}
      />
      <p id={`${name}-hint`} className="text-xs text-slate-600">
        PNG, JPEG or SVG, at most {MAX_IMAGE_BYTES / 1024 / 1024} MB. Leave empty to keep the current one.
      </p>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
}

export default function Branding() {
  const { customer, customers, sites, brandings, alerts } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values;
  const formRef = useFocusFirstInvalid(result?.errors);
  return (
    <div className="max-w-4xl space-y-4">
      <h1 className="text-xl font-semibold">Branding</h1>
      <p className="text-sm text-slate-700">
        A customer&apos;s logo and background on its login page, per country and environment, and optionally for one site. The login page is the customer URL{" "}
        <code>/login?brand=&#123;branding prefix&#125;</code> (add <code>&amp;country=nz</code> for New Zealand, <code>&amp;site=&#123;site code&#125;</code> for a site&apos;s own).
      </p>
      <Form method="get" className="flex items-end gap-2" aria-label="Choose customer">
        <div>
          <label htmlFor="customer_id" className="label">
            Customer
          </label>
          <select id="customer_id" name="customer_id" defaultValue={customer.id} className="input">
            {customers.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.code})
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Show
        </button>
      </Form>
      <p className="text-sm" data-testid="branding-url">
        {customer.brandingPrefix ? (
          <>
            Login page:{" "}
            <a className="link" href={`/login?brand=${encodeURIComponent(customer.brandingPrefix)}`}>
              /login?brand={customer.brandingPrefix}
            </a>
          </>
        ) : (
          <>This customer has no branding prefix yet: set one on the customer screen for its login page to show these images.</>
        )}
      </p>
      <Alerts alerts={result?.message ? [{ type: "error", message: result.message }] : alerts} />
      <section aria-labelledby="current-brandings" className="card">
        <h2 id="current-brandings" className="mb-2 font-semibold">
          {customer.name}&apos;s brandings
        </h2>
        {brandings.length === 0 ? (
          <p className="text-sm text-slate-600">There are no brandings for this customer.</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left">
                <th scope="col">Country</th>
                <th scope="col">Environment</th>
                <th scope="col">Site</th>
                <th scope="col">Logo</th>
                <th scope="col">Background</th>
              </tr>
            </thead>
            <tbody>
              {brandings.map((b) => (
                <tr key={b.id} data-testid={`branding-${b.id}`}>
                  <td>{b.country_code.toUpperCase()}</td>
                  <td>{ENV_LABELS[b.env]}</td>
                  <td>{b.site_name ?? "All sites"}</td>
                  <td>{b.logo_url ? <img src={b.logo_url} alt={`Logo, ${b.country_code.toUpperCase()} ${ENV_LABELS[b.env]}`} className="h-10 max-w-40 object-contain" /> : "None"}</td>
                  <td>{b.bg_url ? <img src={b.bg_url} alt={`Background, ${b.country_code.toUpperCase()} ${ENV_LABELS[b.env]}`} className="h-10 max-w-40 object-cover" /> : "None"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Form ref={formRef} method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Upload branding">
        <h2 className="font-semibold">Upload images</h2>
        <input type="hidden" name="customer_id" value={customer.id} />
        <div className="flex flex-wrap gap-3">
          <div>
            <label htmlFor="country_code" className="label">
              Country
            </label>
            <select id="country_code" name="country_code" defaultValue={values?.country_code || "au"} className="input" {...fieldAria(errors, "country_code")}>
              {BRANDING_COUNTRIES.map((c) => (
                <option key={c} value={c}>
                  {c === "au" ? "Australia (au)" : "New Zealand (nz)"}
                </option>
              ))}
            </select>
            <FieldError id="country_code-error" errors={errors.country_code} />
          </div>
          <div>
            <label htmlFor="env" className="label">
              Environment
            </label>
            <select id="env" name="env" defaultValue={values?.env || "production"} className="input" {...fieldAria(errors, "env")}>
              {BRANDING_ENVIRONMENTS.map((e) => (
                <option key={e} value={e}>
                  {ENV_LABELS[e]}
                </option>
              ))}
            </select>
            <FieldError id="env-error" errors={errors.env} />
          </div>
          <div>
            <label htmlFor="site_id" className="label">
              Site
            </label>
            <select id="site_id" name="site_id" defaultValue={values?.site_id ?? ""} className="input" {...fieldAria(errors, "site_id")}>
              <option value="">All sites</option>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.code})
                </option>
              ))}
            </select>
            <FieldError id="site_id-error" errors={errors.site_id} />
          </div>
        </div>
        <ImageInput name="logo_image" label="Logo" errors={errors} />
        <ImageInput name="bg_image" label="Background image" errors={errors} />
        <button type="submit" className="btn-primary" disabled={busy}>
          Save
        </button>
      </Form>
    </div>
  );
}
