import { redirect, type AppLoadContext } from "@remix-run/node";
import { authorize, requireApiUser, requireUser, type Signed } from "../auth/guard.server";
import { canAdministerInvoices, canUseFinance } from "./access";

/** Every finance screen's loader and action: signed in and a finance user, else "/". */
export async function requireFinanceUser(context: AppLoadContext, request: Request): Promise<Signed> {
  const signed = await requireUser(context, request);
  if (!canUseFinance(signed.user)) throw redirect("/");
  return signed;
}

/** Every finance /api route: 401/403 JSON, never a redirect. */
export async function requireFinanceApi(context: AppLoadContext, request: Request, options: { admin?: boolean } = {}): Promise<Signed> {
  const signed = await requireApiUser(context, request);
  authorize(signed.user, options.admin ? canAdministerInvoices : canUseFinance);
  return signed;
}
