import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Field, FormErrors } from "~/components/Field";
import { clientInfo, requestPasswordReset } from "~/modules/auth/auth.server";
import { TOO_MANY_ATTEMPTS, signInLimited } from "~/modules/auth/limits";
import { forgotPasswordSchema } from "~/modules/auth/schemas";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Forgot password · FreightDesk" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const submission = parseWithZod(formData, { schema: forgotPasswordSchema });
  if (signInLimited(request)) return data({ result: submission.reply({ formErrors: [TOO_MANY_ATTEMPTS] }), message: null }, { status: 429 });
  if (submission.status !== "success") return { result: submission.reply(), message: null };
  const { message } = await requestPasswordReset(context.db, context.mailer, submission.value, context.baseUrl, clientInfo(request));
  return { result: submission.reply({ resetForm: true }), message };
}

export default function ForgotPassword() {
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: answer?.result,
    // on submit, then live: validating on blur made errors appear under the pointer and move links
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <div className="card">
      <h1 className="mb-2 text-lg font-semibold">Forgot your password?</h1>
      <p className="mb-4 text-sm text-slate-600">Enter your e-mail and we will send you a link to choose a new password.</p>
      {answer?.message && (
        <p role="status" className="mb-4 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
          {answer.message}
        </p>
      )}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field label="E-mail" field={fields.email} type="email" autoComplete="email" autoFocus />
        <button type="submit" className="btn-primary w-full justify-center" disabled={navigation.state === "submitting"}>
          Send reset link
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
