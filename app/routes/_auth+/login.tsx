import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field, FormErrors } from "~/components/Field";
import { authenticator } from "~/modules/auth/auth.server";
import { loadCurrentUser } from "~/modules/auth/current-user.server";
import { optionalUser } from "~/modules/auth/guard.server";
import { loginBrand } from "~/modules/branding/branding.server";
import { redirectAfterSignIn } from "~/modules/auth/roles";
import { TOO_MANY_ATTEMPTS, signInLimited } from "~/modules/auth/limits";
import { signInSchema } from "~/modules/auth/schemas";
import { sessionCookie } from "~/modules/auth/sessions.server";
import { AppError } from "~/utils/errors";
import { isSecureRequest, readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Sign in · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const signed = await optionalUser(context, request);
  const params = new URL(request.url).searchParams;
  const wanted = params.get("redirectTo");
  if (signed) throw redirect(redirectAfterSignIn(signed.user, wanted));
  // a customer URL (/login?brand={branding prefix}[&country=nz][&site={code}]) shows its branding
  const brand = await loginBrand(context.db, { brand: params.get("brand"), country: params.get("country"), site: params.get("site") });
  return { ssoEnabled: Boolean(process.env.SAML_ENTRY_POINT) && process.env.APP_ENV !== "production", brand };
}

/**
 * Signs in from the form. A refusal re-renders the page with its message and a 4xx status (the
 * server's limiter counts failed attempts by status), with or without JavaScript; an address over
 * the limit gets 'Too many attempts' here, in the page.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request.clone());
  const submission = parseWithZod(formData, { schema: signInSchema });
  if (signInLimited(request)) return data(submission.reply({ formErrors: [TOO_MANY_ATTEMPTS], hideFields: ["password"] }), { status: 429 });
  if (submission.status !== "success") return submission.reply({ hideFields: ["password"] });
  try {
    const signed = await authenticator(context.db).authenticate("password", request);
    const user = await loadCurrentUser(context.db, signed.userId);
    const to = user ? redirectAfterSignIn(user, String(formData.get("redirectTo") ?? "")) : "/";
    return redirect(to, {
      headers: { "Set-Cookie": sessionCookie(signed.token, { rememberMe: signed.rememberMe, secure: isSecureRequest(request) }) },
    });
  } catch (error) {
    if (error instanceof AppError) return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), { status: error.status });
    throw error;
  }
}

export default function Login() {
  const { ssoEnabled, brand } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    // on submit, then live: validating on blur made errors appear under the pointer and move links
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
  });
  // Each failed attempt shakes the form again (a new key restarts the CSS animation).
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (form.errors?.length) setAttempt((n) => n + 1);
  }, [lastResult, form.errors?.length]);

  return (
    <div key={attempt} className={`card ${form.errors?.length ? "animate-shake" : ""}`} data-testid="login-card">
      {brand?.bgUrl ? (
        // the customer's background behind the whole page (decorative: the logo names the customer)
        <div aria-hidden="true" data-testid="brand-background" className="fixed inset-0 -z-10 bg-cover bg-center" style={{ backgroundImage: `url("${brand.bgUrl}")` }} />
      ) : null}
      {brand?.logoUrl ? <img src={brand.logoUrl} alt={`${brand.customerName} logo`} className="mx-auto mb-4 max-h-20 max-w-full object-contain" data-testid="brand-logo" /> : null}
      <h1 className="mb-4 text-lg font-semibold">Sign in</h1>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field label="E-mail" field={fields.email} type="email" autoComplete="username" autoFocus />
        <Field label="Password" field={fields.password} type="password" autoComplete="current-password" />
        <label className="flex items-center gap-2 text-sm">
          <input {...getInputProps(fields.remember_me, { type: "checkbox" })} value="1" />
          Remember me
        </label>
        <button type="submit" className="btn-primary w-full justify-center" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing in..." : "Sign in"}
        </button>
      </Form>
      <div className="mt-4 flex justify-between text-sm">
        <Link to="/forgot_password" className="text-sky-700 hover:underline">
          Forgot your password?
        </Link>
        {ssoEnabled && (
          <a href="/users/saml_sign_in" className="text-sky-700 hover:underline">
            Single sign-on
          </a>
        )}
      </div>
    </div>
  );
}
