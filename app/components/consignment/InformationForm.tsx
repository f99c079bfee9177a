import type { FormEvent } from "react";
import { fieldLabel, type InformationJson } from "~/modules/consignments/information";

// no limit on the custom reference: a maxlength cut a pasted one silently; the server refuses it with its limit
const LIMITS: Record<string, number> = {
  consignment_number: 40,
  reference: 255,
  special_instructions: 80,
  charge_account: 30,
};
const DATES = new Set(["despatch_date", "estimated_delivery_date"]);

/**
 * The field/value table. For a super admin the fields they may edit are inputs in it (the
 * form Info Save submits: a post to the information page, or the modal's PUT).
 */
export function InformationForm({
  info,
  errors,
  typed,
  onSubmit,
}: {
  info: InformationJson;
  errors: Record<string, string[]>;
  /** what a refused post had typed: shown again, nothing is lost */
  typed?: Record<string, string>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
}) {
  const editable = new Set(info.editable_fields);
  const input = (field: string) => {
    const id = `info-${field}`;
    const value = typed && field in typed ? typed[field] : info.values[field];
    const describedBy = errors[field]?.length ? `${id}-error` : undefined;
    const common = {
      id,
      name: field,
      "aria-describedby": describedBy,
      "aria-invalid": describedBy ? true : undefined,
      className: "input w-full",
    } as const;
    const control =
      field === "active" ? (
        <select {...common} defaultValue={String(value ?? true)}>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      ) : field === "state" ? (
        <select {...common} defaultValue={String(value)}>
          {info.states.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} defaultValue={value == null ? "" : String(value)} maxLength={LIMITS[field]} placeholder={DATES.has(field) ? "YYYY-MM-DD" : undefined} />
      );
    return (
      <>
        <label htmlFor={id} className="sr-only">
          {fieldLabel(field)}
        </label>
        {control}
        {describedBy ? (
          <p id={describedBy} className="field-error">
            {errors[field]!.join(" ")}
          </p>
        ) : null}
      </>
    );
  };
  return (
    <form id="info-form" method="post" action={`/consignment/${info.id}/information`} onSubmit={onSubmit} noValidate>
      <input type="hidden" name="version" value={info.version} />
      {/* scrolled by keyboard too: the region takes focus */}
      <div className="max-h-[40vh] overflow-auto" tabIndex={0} role="region" aria-label="Fields and values">
        <table className="w-full text-sm" data-testid="info-fields">
          <caption className="sr-only">Fields and values</caption>
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2">
                Field
              </th>
              <th scope="col" className="py-1">
                Value
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {info.fields.map(({ field, value }) => (
              <tr key={field} data-field={field}>
                <th scope="row" className="py-1 pr-2 text-left font-mono text-xs font-normal">
                  {field}
                </th>
                <td className="py-1 break-all">{editable.has(field) ? input(field) : value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </form>
  );
}
