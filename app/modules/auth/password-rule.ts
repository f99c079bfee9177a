/** Password rule of spec 2 section 5: 10 or more characters, a lower case, an upper case and 2 digits. */
export const PASSWORD_RULE_MESSAGE =
  "Password must be at least 10 characters and contain at least 1 lower case letter, 1 upper case letter and 2 digits.";

export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < 10) problems.push("at least 10 characters");
  if (!/[a-z]/.test(password)) problems.push("a lower case letter");
  if (!/[A-Z]/.test(password)) problems.push("an upper case letter");
  if ((password.match(/\d/g) ?? []).length < 2) problems.push("2 digits");
  return problems;
}

export const isValidPassword = (password: string) => passwordProblems(password).length === 0;
