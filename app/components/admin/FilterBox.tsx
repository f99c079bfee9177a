import { Form } from "@remix-run/react";

/** A list's filter box: a GET form, so the filter lives in the URL (`?filter=`) and works before JavaScript loads. */
export function FilterBox({ label, value, formLabel }: { label: string; value: string; formLabel: string }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-2" role="search" aria-label={formLabel}>
      <div>
        <label htmlFor="filter" className="label">
          {label}
        </label>
        <input id="filter" name="filter" type="search" defaultValue={value} maxLength={100} className="input w-72" />
      </div>
      <button type="submit" className="btn">
        Filter
      </button>
    </Form>
  );
}
