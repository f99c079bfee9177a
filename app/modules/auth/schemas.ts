import { z } from "zod";
import { PASSWORD_RULE_MESSAGE, isValidPassword } from "./password-rule";

/** Login and forgot password (spec 1 section 5): required, minimum length 2, e-mail format. */
const emailField = z
  .string({ error: "Email is required" })
  .trim()
  // abort: one message at a time, the first rule broken
  .min(1, { error: "Email is required", abort: true })
  .min(2, { error: "Email must be at least 2 characters", abort: true })
  .pipe(z.email({ error: "Please enter a valid email" }));

const checkbox = z.preprocess(
  (v) => v === true || v === "1" || v === 1 || v === "on" || v === "true",
  z.boolean(),
);

export const signInSchema = z.object({
  email: emailField,
  password: z
    .string({ error: "Password is required" })
    .min(1, { error: "Password is required", abort: true })
    .min(2, "Password must be at least 2 characters"),
  remember_me: checkbox.default(false),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });

const newPassword = z
  .string({ error: "Password is required" })
  .min(1, { error: "Password is required", abort: true })
  .refine(isValidPassword, PASSWORD_RULE_MESSAGE);

export const changePasswordSchema = z
  .object({
    current_password: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
    password: newPassword,
    password_confirmation: z.string({ error: "Please confirm the new password" }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "Password confirmation doesn't match Password",
  });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(10, "This reset link is invalid or has expired."),
    password: newPassword,
    password_confirmation: z.string({ error: "Please confirm the new password" }),
  })
  .refine((v) => v.password === v.password_confirmation, {
    path: ["password_confirmation"],
    message: "Password confirmation doesn't match Password",
  });

export const forgotPasswordMessage = (email: string) =>
  `An email has been sent to ${email}, if user exists and is permitted to reset password.`;

export const INVALID_SIGN_IN = "Invalid email or password.";
export const DISABLED_SIGN_IN = "Your account is disabled. Please contact customer services.";
