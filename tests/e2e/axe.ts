import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./support/test";

/**
 * The accessibility audit shared by the accessibility specs (issue 13 section 5): axe with WCAG
 * 2.0 and 2.1 (A and AA) and axe's best practices (landmarks, heading order, table headers). A
 * serious or critical violation fails, and so does one of the moderate or minor rules this product
 * meets everywhere (HELD); each screen is a soft assertion, so one run lists every screen's
 * violations (rule, impact, nodes). Other moderate and minor ones are recorded as annotations.
 */

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const BLOCKING = ["serious", "critical"];
/** Moderate or minor rules fixed across the product: kept that way. */
const HELD = ["heading-order", "empty-table-header"];
export const json = { headers: { Accept: "application/json" } };

type Result = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/** A violation as a person reads it: rule, impact, what it asks, then each node and why it fails. */
function describe(v: Result) {
  const nodes = v.nodes.map((n) => {
    const why = [...n.any, ...n.all, ...n.none].map((c) => c.message).find(Boolean) ?? "";
    return `    ${n.target.join(" ")}${why ? ` (${why})` : ""}`;
  });
  return `${v.id} (${v.impact}): ${v.help}\n${nodes.join("\n")}`;
}

const fails = (v: Result) => BLOCKING.includes(v.impact ?? "") || HELD.includes(v.id);

/**
 * Runs axe over the page as it stands and fails softly on what `fails` picks. ARIA results axe
 * leaves for review (a reference to an id not on the page, a label on an element without a role)
 * count as violations: no screen here renders the target later.
 */
export async function audit(page: Page, screen: string) {
  const { violations, incomplete } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = [...violations, ...incomplete.filter((r) => r.id.startsWith("aria-"))];
  for (const v of found.filter((x) => !fails(x))) test.info().annotations.push({ type: `axe ${v.impact}`, description: `${screen}: ${describe(v)}` });
  const failing = found.filter(fails).map(describe);
  expect.soft(failing, `accessibility violations on ${screen}:\n${failing.join("\n")}`).toEqual([]);
}

/** Opens a path and audits it once the page has loaded (and, when named, once `ready` shows). */
export async function visit(page: Page, path: string, screen = path, ready?: (page: Page) => Promise<void>) {
  await test.step(screen, async () => {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    // nothing bounced to / or /login: the screen asked for is the one audited
    expect(new URL(page.url()).pathname, path).toBe(path.split("?")[0]);
    if (ready) await ready(page);
    await audit(page, screen);
  });
}

export const hydrated = (testId: string) => async (page: Page) => expect(page.getByTestId(testId)).toHaveAttribute("data-hydrated", "true");
