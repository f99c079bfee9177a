import type { FieldMetadata } from "@conform-to/react";
import { getInputProps } from "@conform-to/react";
import { useEffect, useRef, type InputHTMLAttributes } from "react";

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

/**
 * The aria attributes of a plain form's control named `name`: invalid while the server has errors for
 * it, described by its hint (`${name}-hint`, when it has one) and its errors (`${name}-error`).
 */
export function fieldAria(errors: Record<string, string[] | undefined>, name: string, hasHint = false) {
  const invalid = Boolean(errors[name]?.length);
  return {
    "aria-invalid": invalid || undefined,
    "aria-describedby": [hasHint ? `${name}-hint` : "", invalid ? `${name}-error` : ""].filter(Boolean).join(" ") || undefined,
  };
}

/** A labelled input of a plain (non-conform) form, with its optional hint and its server errors linked. */
export function TextField({
  name,
  label,
  errors,
  hint,
  className = "input",
  ...rest
}: { name: string; label: string; errors: Record<string, string[] | undefined>; hint?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "name" | "id">) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <input id={name} name={name} className={className} {...fieldAria(errors, name, Boolean(hint))} {...rest} />
      {hint ? (
        <p id={`${name}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
}

/**
 * A form's ref that, with JavaScript, moves focus to the first field marked invalid whenever the
 * server refuses a save (`errors` is the action's field errors).
 */
export function useFocusFirstInvalid(errors: Record<string, unknown> | undefined) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (errors && Object.keys(errors).length) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return form;
}
