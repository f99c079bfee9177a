import type { FieldMetadata } from "@conform-to/react";
import { getInputProps } from "@conform-to/react";
import type { InputHTMLAttributes } from "react";

/** A labelled input bound to a conform field, with its errors announced and linked. */
export function Field({
  label,
  field,
  type = "text",
  ...rest
}: {
  label: string;
  field: FieldMetadata<string | undefined>;
  type?: "text" | "email" | "password" | "search" | "tel";
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "form">) {
  return (
    <div>
      <label htmlFor={field.id} className="label">
        {label}
      </label>
      <input {...getInputProps(field, { type })} {...rest} key={field.key} className="input" />
      <FieldError id={field.errorId} errors={field.errors?.slice(0, 1)} />
    </div>
  );
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id} role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
      {errors[0]}
    </div>
  );
}

/** A field's errors (a conform field passes its errorId and first error): `id` is what the control's aria-describedby names. */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="field-error">
      {errors.join(" ")}
    </p>
  ) : null;
}
