import { Form } from "@remix-run/react";
import { PAGE_SIZES } from "~/modules/invoices/schemas";

/**
 * The page-size choice of the finance lists (spec 3: 20, 50, 100, 150, saved per user): a plain
 * form posting intent=per_page to the route's action, so it works before JavaScript.
 */
export function PageSizeForm({ label, value }: { label: string; value: number }) {
  return (
    <Form method="post" className="flex items-end gap-2">
      <label htmlFor="per_page" className="text-sm">
        {label}
      </label>
      <select id="per_page" name="per_page" defaultValue={value} className="input w-24">
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
      <button type="submit" name="intent" value="per_page" className="btn">
        Apply
      </button>
    </Form>
  );
}
