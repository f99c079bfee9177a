import { expect, type Page } from "@playwright/test";

export const PASSWORD = "Demo-password-12";

/** Signs in through the login form, with the keyboard only. */
export async function signIn(page: Page, email: string, path = "/login") {
  await page.goto(path);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Password").press("Enter");
  await expect(page).not.toHaveURL(/\/login/);
}
