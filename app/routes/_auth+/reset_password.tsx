import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormErrors } from "~/components/Field";
import { resetPassword } from "~/modules/auth/auth.server";
import { PASSWORD_RULE_MESSAGE } from "~/modules/auth/password-rule";
import { TOO_MANY_ATTEMPTS, signInLimited } from "~/modules/auth/limits";
import { resetPasswordSchema } from "~/modules/auth/schemas";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · FreightDesk" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  const hideFields = ["password", "password_confirmation"];
  if (signInLimited(request)) return data(submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields }), { status: 429 });
  if (submission.status !== "success") return submission.reply({ hideFields: ["password", "password_confirmation"] });
  try {
    await resetPassword(context.db, submission.value);
  } catch (error) {
    if (error instanceof AppError) return submission.reply({ formErrors: [error.message] });
    throw error;
  }
  return redirect("/login?reset=1");
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    // on submit, then live: validating on blur made errors appear under the pointer and move links
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  return (
    <div className="card">
      <h1 className="mb-2 text-lg font-semibold">Choose a new password</h1>
      <p className="mb-4 text-sm text-slate-600">{PASSWORD_RULE_MESSAGE}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors ?? fields.token.errors} />
        <input type="hidden" name="token" value={token} />
        <Field label="New password" field={fields.password} type="password" autoComplete="new-password" autoFocus />
        <Field label="Confirm new password" field={fields.password_confirmation} type="password" autoComplete="new-password" />
        <button type="submit" className="btn-primary w-full justify-center">
          Save password
        </button>
      </Form>
      <p className="mt-4 text-sm">
        <Link to="/login" className="text-sky-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
