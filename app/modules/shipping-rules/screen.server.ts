/**
 * The shipping rules screen (/customers/{id}/shipping_rules): what it shows and its form posts,
 * answered on the page through the same services as the /api calls.
 */
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { sites } from "../../../db/schema";
import type { Alert } from "../../components/Alerts";
import type { CurrentUser } from "../auth/current-user.server";
import { todayIn } from "../calendar/site-time";
import { AppError, type FieldErrors } from "../../utils/errors";
import { readPageForm } from "../../utils/http.server";
import { moveOne } from "../../utils/reorder";
import { describeRule, formErrors, ruleFromForm } from "./form";
import { createRule, deleteRule, ruleChoices, ruleCustomer, rulesOf, updateRule, updateSequenceOrder } from "./shipping-rules.server";
import { testRules } from "./test.server";

export async function rulesScreen(db: DbOrTx, user: CurrentUser, customerId: number) {
  const customer = await ruleCustomer(db, user, customerId);
  const [rules, choices] = await Promise.all([rulesOf(db, customerId), ruleChoices(db, customerId)]);
  const siteName = new Map(choices.sites.map((s) => [s.id, s.name]));
  const siteCodes = await db.select({ code: sites.code, name: sites.name }).from(sites).where(eq(sites.customerId, customerId));
  return { customer, rules: rules.map((r) => ({ ...r, summary: describeRule(r, r.site_id ? (siteName.get(r.site_id) ?? null) : null) })), choices, siteCodes };
}

export type TestResult = Awaited<ReturnType<typeof testRules>>;

export interface ScreenOutcome {
  status: number;
  alerts: Alert[];
  /** the rule form's errors by field, with what was typed */
  errors?: FieldErrors;
  typed?: ReturnType<typeof ruleFromForm>;
  test?: TestResult;
  testErrors?: FieldErrors;
  /** a saved rule: the page goes back to the list */
  saved?: boolean;
}

const num = (v: FormDataEntryValue | null) => (v == null || String(v).trim() === "" ? undefined : String(v).trim());

/** The test panel's fields (named t_*, apart from the rule form's) as a rating payload, sent from the chosen site's own address. */
async function testPayload(db: DbOrTx, customerId: number, form: FormData) {
  const code = String(form.get("t_site_code") ?? "");
  const [site] = await db.select().from(sites).where(and(eq(sites.customerId, customerId), eq(sites.code, code)));
  if (!site) throw new AppError("invalid", "Site must be one of the customer's sites", { site_code: ["Site must be one of the customer's sites"] });
  return {
    despatch_date: todayIn(site.timezone),
    site_code: site.code,
    sender_locality: site.locality ?? "",
    sender_postcode: site.postcode ?? "",
    sender_sublocality: site.sublocality,
    sender_country: site.country,
    receiver_locality: String(form.get("t_receiver_locality") ?? ""),
    receiver_postcode: String(form.get("t_receiver_postcode") ?? ""),
    receiver_region: String(form.get("t_receiver_region") ?? ""),
    receiver_country: String(form.get("t_receiver_country") || site.country),
    receiver_address_type: String(form.get("t_receiver_address_type") || "business"),
    reference: String(form.get("t_reference") ?? "") || undefined,
    declared_value: num(form.get("t_declared_value")),
    items: [
      {
        quantity: num(form.get("t_quantity")) ?? 1,
        length: num(form.get("t_length")),
        width: num(form.get("t_width")),
        height: num(form.get("t_height")),
        weight_in_uom: num(form.get("t_weight")),
        item_type: num(form.get("t_item_type")) ? Number(form.get("t_item_type")) : null,
        dangerous_goods: form.get("t_dangerous_goods") === "on",
      },
    ],
  };
}

/** A rating error's path as the test panel's field ("items.0.weight_in_uom" is t_weight). */
function testFieldErrors(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, messages] of Object.entries(errors)) {
    const field = path.replace(/^items\.\d+\./, "").replace("weight_in_uom", "weight");
    (out[`t_${field}`] ??= []).push(...messages);
  }
  return out;
}

export async function rulesScreenAction(db: DbOrTx, user: CurrentUser, customerId: number, request: Request): Promise<ScreenOutcome> {
  try {
    // who may post is settled before the body is read
    await ruleCustomer(db, user, customerId);
    const form = await readPageForm(request);
    const intent = form.get("intent");
    if (intent === "test") {
      const test = await testRules(db, user, customerId, await testPayload(db, customerId, form)).catch((e: unknown) => {
        if (e instanceof AppError && e.code === "invalid") return { errors: e.fieldErrors, message: e.message };
        throw e;
      });
      if ("errors" in test) return { status: 422, alerts: [{ type: "error", message: `Cannot test: ${test.message}` }], testErrors: testFieldErrors(test.errors) };
      return { status: 200, alerts: [], test };
    }
    if (intent === "save") {
      const body = ruleFromForm(form);
      const id = Number(form.get("id")) || null;
      try {
        if (id) await updateRule(db, user, customerId, id, body);
        else await createRule(db, user, customerId, body);
      } catch (e) {
        if (e instanceof AppError && e.code === "invalid") return { status: 422, alerts: [{ type: "error", message: `Unable to save. ${e.message}` }], errors: formErrors(e.fieldErrors), typed: body };
        throw e;
      }
      return { status: 200, alerts: [{ type: "success", message: id ? "Shipping rule saved." : "New shipping rule saved." }], saved: true };
    }
    if (intent === "delete") {
      await deleteRule(db, user, customerId, Number(form.get("id")));
      return { status: 200, alerts: [{ type: "success", message: "Shipping rule deleted." }] };
    }
    if (intent === "order") {
      await updateSequenceOrder(db, user, customerId, { ids: form.getAll("ids").map(String) });
      return { status: 200, alerts: [] };
    }
    if (intent === "move") {
      // without JavaScript: one rule one place up or down
      const ids = moveOne((await rulesOf(db, customerId)).map((r) => r.id), Number(form.get("id")), form.get("direction") === "up" ? "up" : "down");
      if (!ids) throw new AppError("not_found", "Shipping rule not found");
      await updateSequenceOrder(db, user, customerId, { ids });
      return { status: 200, alerts: [{ type: "success", message: "Order saved." }] };
    }
    throw new AppError("bad_request", "Choose an action.");
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.code === "forbidden") throw new Response(e.message, { status: 403 });
    return { status: e.status, alerts: [{ type: "error", message: e.message }] };
  }
}
