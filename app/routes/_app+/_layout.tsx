import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, isRouteErrorResponse, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { ConsignmentSearch } from "~/components/ConsignmentSearch";
import { InvoiceSearch } from "~/components/finance/InvoiceSearch";
import { requireUser } from "~/modules/auth/guard.server";
import { noticesPage } from "~/modules/notices/notices.server";
import { enquiriesMenu, mainNavigation, userMenu } from "~/modules/shell/navigation";
import { enquiryTypesForMenu } from "~/modules/enquiries/menu.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const [latest, enquiryTypes] = await Promise.all([
    noticesPage(context.db, user, { limit: 5, request: context }),
    enquiryTypesForMenu(context.db, user, new URL(request.url).pathname),
  ]);
  return data({
    user: {
      id: user.id,
      fullName: user.fullName,
      firstName: user.firstName,
      email: user.email,
      role: user.role,
      view: user.view,
      canBook: user.canBook,
      canExport: user.canExport,
      canReconcile: user.canReconcile,
      customer: { name: user.customer.name, status: user.customer.status },
    },
    unseen: latest.unseen,
    latestNotices: latest.notices,
    // the header search writes despatch dates in the user's own format
    dateCountry: user.clock.dateFormat,
    enquiryTypes,
  });
}

function Menu({ label, children, badge, testId }: { label: string; children: React.ReactNode; badge?: number; testId?: string }) {
  return (
    <details className="group relative" data-menu data-testid={testId}>
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded px-2 py-1 text-sm hover:bg-sky-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-white">
        {label}
        {badge ? (
          <span className="rounded-full bg-amber-400 px-1.5 text-xs font-bold text-slate-900" data-testid="unseen-count" aria-label={`${badge} unseen`}>
            {badge}
          </span>
        ) : null}
        <span aria-hidden>▾</span>
      </summary>
      <div className="absolute right-0 z-20 mt-1 min-w-56 rounded border border-slate-200 bg-white py-1 text-slate-800 shadow-lg">{children}</div>
    </details>
  );
}

/**
 * Menus are <details> so they work before JavaScript loads; with it, a click elsewhere or Escape
 * closes them (Escape returns focus to the menu button), and opening one closes the others.
 */
function useMenusClose() {
  useEffect(() => {
    const closeAll = (except?: Element | null) =>
      document.querySelectorAll("details[data-menu][open]").forEach((d) => d !== except && d.removeAttribute("open"));
    const onClick = (e: MouseEvent) => closeAll((e.target as Element).closest("details[data-menu]"));
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      const open = (e.target as Element).closest?.("details[data-menu][open]");
      closeAll();
      open?.querySelector("summary")?.focus();
    };
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
}

const menuItem = "block px-3 py-1.5 text-sm hover:bg-slate-100 focus:bg-slate-100 focus:outline-none";

export default function AppShell() {
  const { user, unseen, latestNotices, dateCountry, enquiryTypes } = useLoaderData<typeof loader>();
  const location = useLocation();
  const here = location.pathname + location.search;
  useMenusClose();
  return (
    <div className="min-h-full">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-white focus:p-2">
        Skip to content
      </a>
      <header className="bg-sky-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-2">
          <Link to={user.view === "FINANCE" ? "/invoices_payable" : "/"} className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" className="h-6 w-6" /> FreightDesk
          </Link>
          <nav aria-label="Main" className="flex gap-1">
            {mainNavigation(user).map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                className={({ isActive }) => `rounded px-2 py-1 text-sm hover:bg-sky-800 ${isActive ? "bg-sky-800 font-semibold" : ""}`}
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
          <ConsignmentSearch country={dateCountry} />
          {user.view === "FINANCE" && <InvoiceSearch />}
          <Menu label="Enquiries">
            {enquiriesMenu(user, enquiryTypes).map((item) => (
              <Link key={item.to} to={item.to} className={menuItem}>
                {item.label}
              </Link>
            ))}
          </Menu>
          <Menu label="Notices" badge={unseen} testId="notices-bell">
            <div className="max-h-80 w-80 overflow-auto">
              {latestNotices.length === 0 ? (
                <p className="px-3 py-2 text-sm text-slate-500">No notices.</p>
              ) : (
                latestNotices.map((n) => (
                  <Link key={n.id} to={`/home#notice-${n.id}`} className={`${menuItem} ${n.seen ? "" : "font-semibold"}`}>
                    {n.header}
                  </Link>
                ))
              )}
            </div>
            <div className="flex items-center justify-between border-t border-slate-200 px-3 py-1.5">
              <Form method="post" action="/home">
                <input type="hidden" name="intent" value="mark_all_seen" />
                <input type="hidden" name="redirectTo" value={here} />
                <button type="submit" className="text-sm text-sky-700 hover:underline" disabled={unseen === 0}>
                  Mark all as seen
                </button>
              </Form>
              <Link to="/home#notices" className="text-sm text-sky-700 hover:underline">
                See all
              </Link>
            </div>
          </Menu>
          <Menu label={user.firstName} testId="user-menu">
            <p className="px-3 py-1.5 text-xs text-slate-500">
              {user.fullName} · {user.customer.name}
            </p>
            {userMenu(user).map((item) => (
              <Link key={item.to} to={item.to} className={menuItem}>
                {item.label}
              </Link>
            ))}
            <Form method="post" action="/logout">
              <button type="submit" className={`${menuItem} w-full text-left`}>
                Logout
              </button>
            </Form>
          </Menu>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}

/** Errors inside the shell: a 403 shows its message (personal for staff), others a plain page. */
export function ErrorBoundary() {
  const error = useRouteError();
  let title = "Something went wrong";
  let message = "Please try again. If it keeps happening, contact tech support.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      title = "Not authorised";
      message = (error.data as { message?: string })?.message ?? "You are not authorised to do that.";
    } else if (error.status === 404) {
      title = "Not found";
      message = (error.data as { message?: string })?.message ?? "That page does not exist.";
    }
  }
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">{title}</h1>
      <p role="alert" className="mt-2 text-slate-700">
        {message}
      </p>
      <Link to="/home" className="btn mt-4">
        Go to home
      </Link>
    </main>
  );
}
