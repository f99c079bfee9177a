import { expect, test } from "./support/test";
import { countMouse, despatchedSimex, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Enquiries (issue 15 item 1): a despatcher raises one from a despatched consignment with the
 * keyboard alone (the enquiry modal); customer service answers it and moves it to solved; the
 * raiser reads the answer in the trail.
 */
test("raise an enquiry from a despatched consignment by keyboard; customer service answers and solves it; the raiser sees the answer", async ({ page }) => {
  test.setTimeout(90_000);
  const subject = `Parcel late ${Date.now()}`;
  await signIn(page, "despatcher@example.com");
  const { id, number } = await despatchedSimex(page, "E2E-ENQUIRY", { name: "Enquiry Receiver" });
  await page.goto(`/consignment/${id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("consignment-enquiries")).toContainText("There are no enquiries to display.");
  await countMouse(page);

  // the modal: name and e-mail are the signed-in user's; subject, type and description typed
  await tabTo(page, page.getByRole("button", { name: "Raise enquiry" }), 150);
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("enquiry-dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveValue("Dana Despatcher");
  await expect(dialog.getByLabel("E-mail")).toHaveValue("despatcher@example.com");
  await expect(dialog.getByLabel("Enquiry type").locator("option", { hasText: "Delivery delay" })).toHaveCount(1);
  await tabTo(page, dialog.getByLabel("Subject"), 10);
  await page.keyboard.type(subject);
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("Enquiry type")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByLabel("Enquiry type").locator("option:checked")).toHaveText("Delivery delay");
  await page.keyboard.press("Tab");
  await page.keyboard.type("It was due yesterday.");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Send enquiry" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}/enquiries\\?done=created$`));
  await expect(page.getByRole("status").filter({ hasText: "Your enquiry was sent." })).toBeVisible();
  const row = page.getByTestId("enquiries").locator("tbody").filter({ hasText: subject.slice(0, 20) });
  await expect(row.getByTestId("status")).toHaveText("Open");
  expect(await mouseEvents(page)).toBe(0);

  // customer service finds it among every customer's, answers and solves it
  await page.context().clearCookies();
  await signIn(page, "customerservice@example.com");
  await page.goto("/enquiries?status=open");
  const csRow = page.getByTestId("enquiries").locator("tbody").filter({ hasText: subject.slice(0, 20) });
  await expect(csRow).toContainText("Acme Distribution");
  await csRow.locator("summary").click();
  await expect(csRow.getByTestId("comment")).toContainText("It was due yesterday.");
  await csRow.getByLabel("Add a comment").fill("The carrier delivers it today.");
  await csRow.getByRole("button", { name: "Add comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your comment was added." })).toBeVisible();
  await page.goto("/enquiries");
  const again = page.getByTestId("enquiries").locator("tbody").filter({ hasText: subject.slice(0, 20) });
  await again.locator("summary").click();
  await again.getByLabel("Status", { exact: true }).selectOption("solved");
  await again.getByRole("button", { name: "Change status" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The enquiry's status was changed." })).toBeVisible();
  await expect(page.getByTestId("enquiries").locator("tbody").filter({ hasText: subject.slice(0, 20) }).getByTestId("status")).toHaveText("Solved");

  // the raiser reads the answer on the consignment's enquiries
  await page.context().clearCookies();
  await signIn(page, "despatcher@example.com");
  await page.goto(`/consignment/${id}/enquiries`);
  await expect(page.getByRole("heading", { name: `Enquiries of consignment ${number}` })).toBeVisible();
  const mine = page.getByTestId("enquiries").locator("tbody").filter({ hasText: subject.slice(0, 20) });
  await expect(mine.getByTestId("status")).toHaveText("Solved");
  await mine.locator("summary").click();
  await expect(mine.getByTestId("comment").filter({ hasText: "The carrier delivers it today." }).getByTestId("comment-author")).toHaveText("Casey Service");
});
