/** A field's server-side errors, under it; `id` is what the field's aria-describedby names. */
export function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} className="field-error">
      {errors.join(" ")}
    </p>
  ) : null;
}
