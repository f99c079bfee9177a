import { Form } from "@remix-run/react";
import type { CategoryJson } from "~/modules/enquiries/types";

export interface EnquiryFormDefaults {
  full_name: string;
  email: string;
  phone: string;
}

/**
 * The enquiry form (spec 1 "enquiry modal"): name, e-mail, phone, subject, type, description. Posts
 * to the enquiries page's action, so it works before JavaScript loads; errors come back per field.
 */
export function EnquiryForm({
  action,
  categories,
  defaults,
  errors = {},
  values,
  idPrefix = "enquiry",
  onCancel,
  as: FormComponent = Form,
}: {
  action?: string;
  categories: CategoryJson[];
  defaults: EnquiryFormDefaults;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
  idPrefix?: string;
  onCancel?: () => void;
  /** the modal sends through a fetcher's Form, so a refusal is shown in the modal, not on another page */
  as?: typeof Form;
}) {
  const v = (name: keyof EnquiryFormDefaults | "subject" | "category_id" | "description") => values?.[name] ?? (name in defaults ? defaults[name as keyof EnquiryFormDefaults] : "");
  const id = (name: string) => `${idPrefix}-${name}`;
  const error = (name: string) => {
    const message = errors[name]?.[0];
    return message ? (
      <p id={id(`${name}-error`)} className="field-error">
        {message}
      </p>
    ) : null;
  };
  const described = (name: string) => (errors[name]?.length ? { "aria-invalid": true, "aria-describedby": id(`${name}-error`) } : {});
  const base = errors.base?.[0] ?? errors.consignment_id?.[0];
  return (
    <FormComponent method="post" action={action} className="space-y-3" noValidate aria-label="New enquiry" data-testid="enquiry-form">
      <input type="hidden" name="intent" value="create" />
      {base ? (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900" data-testid="enquiry-failure">
          {base}
        </div>
      ) : null}
      <div className="grid gap-3 md:grid-cols-3">
        <div>
          <label htmlFor={id("full_name")} className="label">
            Name
          </label>
          <input id={id("full_name")} name="full_name" className="input" defaultValue={v("full_name")} autoComplete="name" required {...described("full_name")} />
          {error("full_name")}
        </div>
        <div>
          <label htmlFor={id("email")} className="label">
            E-mail
          </label>
          <input id={id("email")} name="email" type="email" className="input" defaultValue={v("email")} autoComplete="email" required {...described("email")} />
          {error("email")}
        </div>
        <div>
          <label htmlFor={id("phone")} className="label">
            Phone
          </label>
          <input id={id("phone")} name="phone" type="tel" className="input" defaultValue={v("phone")} autoComplete="tel" {...described("phone")} />
          {error("phone")}
        </div>
      </div>
      <div className="grid gap-3 md:grid-cols-3">
        <div className="md:col-span-2">
          <label htmlFor={id("subject")} className="label">
            Subject
          </label>
          <input id={id("subject")} name="subject" className="input" defaultValue={v("subject")} required {...described("subject")} />
          {error("subject")}
        </div>
        <div>
          <label htmlFor={id("category_id")} className="label">
            Enquiry type
          </label>
          <select id={id("category_id")} name="category_id" className="input" defaultValue={v("category_id")} {...described("category_id")}>
            <option value="">(none)</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {error("category_id")}
        </div>
      </div>
      <div>
        <label htmlFor={id("description")} className="label">
          Description
        </label>
        <textarea id={id("description")} name="description" className="input min-h-24" defaultValue={v("description")} {...described("description")} />
        {error("description")}
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary">
          Send enquiry
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </FormComponent>
  );
}
