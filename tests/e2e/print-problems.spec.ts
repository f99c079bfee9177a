import { expect, test } from "./support/test";
import { signIn, startRatedConsignment, tabTo } from "./helpers";

/** A print address a person opens that cannot print shows a page they can read, with a way back: never raw JSON. */
test("opening the labels of a consignment not printed yet shows the message and leads back to it with the keyboard", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await startRatedConsignment(page);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/consignment\/\d+/);
  await expect(page.getByTestId("consignment-title")).toHaveText(/^Despatchable consignment/);
  const id = new URL(page.url()).pathname.split("/").pop();

  // saved, never printed: the address Reprint and the printers open
  const res = await page.goto(`/print/${id}/labels`);
  expect(res?.status()).toBe(409);
  expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
  await expect(page.getByRole("heading", { name: "Cannot print" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("Labels have not been printed yet: print them from the consignment screen first.");
  await expect(page.locator("body")).not.toContainText('{"errors"');

  const back = page.getByRole("link", { name: "Back to the consignment" });
  await tabTo(page, back, 5);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}$`));
  await expect(page.getByTestId("consignment-screen")).toBeVisible();
});

test("a manifest report that cannot be found leads back to the manifests", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const res = await page.goto("/print/despatch_manifest_report?ids=999999");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("alert")).toHaveText("Manifest not found");
  await expect(page.locator("body")).not.toContainText('{"errors"');
  await page.getByRole("link", { name: "Back to manifests" }).click();
  await expect(page).toHaveURL(/\/manifests$/);
});
