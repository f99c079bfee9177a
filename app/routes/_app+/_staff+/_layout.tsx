import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { requireStaff } from "~/modules/auth/guard.server";

/**
 * The provider's staff screens (spec 2 section 6, "team view": devs, super admin, admin and
 * customer service). The role is checked here once for the whole area; each screen's own loader
 * and action still authorise, because Remix runs a layout's loader beside its children's, not before.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(context, request);
  return null;
}

export default function StaffLayout() {
  return <Outlet />;
}
