import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormErrors } from "~/components/Field";
import { changePassword } from "~/modules/auth/auth.server";
import { requireUser } from "~/modules/auth/guard.server";
import { PASSWORD_RULE_MESSAGE } from "~/modules/auth/password-rule";
import { changePasswordSchema } from "~/modules/auth/schemas";
import { ClockForm } from "~/components/users/ClockForm";
import { inheritedClock } from "~/modules/calendar/user-clock";
import { timeZones } from "~/modules/customers/sites";
import { clockSettingSchema, saveClockSetting } from "~/modules/users/clock-setting.server";
import { AppError } from "~/utils/errors";
import { fieldErrorsFrom } from "~/utils/validation";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Change password · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const inherited = inheritedClock(user.clockInputs);
  return {
    forced: user.passwordResetRequired,
    landing: user.view === "FINANCE" ? "/invoices_payable" : "/",
    clock: { timezone: user.clockInputs.own.timezone ?? "", date_format: user.clockInputs.own.dateFormat ?? "", inherited, zones: timeZones() },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, token } = await requireUser(context, request);
  const formData = await readPageForm(request);
  if (formData.get("intent") === "clock") {
    const parsed = clockSettingSchema.safeParse({ timezone: formData.get("timezone"), date_format: formData.get("date_format") });
    if (!parsed.success) return { result: undefined, saved: false, clockErrors: fieldErrorsFrom(parsed.error), clockSaved: false };
    await saveClockSetting(context.db, user.id, parsed.data);
    return { result: undefined, saved: false, clockErrors: {}, clockSaved: true };
  }
  const submission = parseWithZod(formData, { schema: changePasswordSchema });
  const hide = ["current_password", "password", "password_confirmation"];
  if (submission.status !== "success") return { result: submission.reply({ hideFields: hide }), saved: false };
  try {
    await changePassword(context.db, user.id, submission.value, token);
  } catch (error) {
    if (error instanceof AppError) return { result: submission.reply({ fieldErrors: error.fieldErrors, hideFields: hide }), saved: false };
    throw error;
  }
  return { result: submission.reply({ resetForm: true }), saved: true };
}

export default function ChangePassword() {
  const { forced, landing, clock } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult: data && "result" in data ? data.result : undefined,
    // on submit, then live: validating on blur made errors appear under the pointer and move links
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
  });
  return (
    <div className="card mx-auto max-w-md">
      <h1 className="mb-2 text-lg font-semibold">Change password</h1>
      {forced && !data?.saved && (
        <p role="alert" className="mb-3 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          You must change your password before you continue.
        </p>
      )}
      {data?.saved && (
        <p role="status" className="mb-3 rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
          Your password has been changed. <a href={landing} className="underline">Continue</a>
        </p>
      )}
      <p className="mb-4 text-sm text-slate-600">{PASSWORD_RULE_MESSAGE}</p>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <FormErrors errors={form.errors} />
        <Field label="Current password" field={fields.current_password} type="password" autoComplete="current-password" autoFocus />
        <Field label="New password" field={fields.password} type="password" autoComplete="new-password" />
        <Field label="Confirm new password" field={fields.password_confirmation} type="password" autoComplete="new-password" />
        <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
          Save password
        </button>
      </Form>
      <ClockForm clock={clock} errors={(data && "clockErrors" in data ? data.clockErrors : undefined) ?? {}} saved={Boolean(data && "clockSaved" in data && data.clockSaved)} />
    </div>
  );
}
