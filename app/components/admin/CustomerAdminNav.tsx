import { NavLink } from "@remix-run/react";

/** A customer's administration screens (spec 2 section 2); Custom References only for a dropdown_generic customer. */
export function customerAdminLinks(customerId: number, generic: boolean): { to: string; label: string }[] {
  const base = `/customers/${customerId}`;
  return [
    { to: base, label: "Details" },
    { to: `${base}/index_sites`, label: "Sites" },
    { to: `${base}/index_users`, label: "Users" },
    { to: `${base}/index_recipients`, label: "Recipients" },
    { to: `${base}/index_item_types`, label: "Item Types" },
    { to: `${base}/shipping_rules`, label: "Shipping Rules" },
    ...(generic ? [{ to: `${base}/reference_types`, label: "Custom References" }] : []),
    { to: `${base}/custom_emails`, label: "Custom E-mails" },
    { to: `${base}/index_declarations`, label: "Declarations" },
    { to: `${base}/site_services`, label: "Carriers & Services" },
    { to: `${base}/surcharges`, label: "Surcharges" },
    { to: `${base}/store`, label: "Online Store" },
    { to: `${base}/notification_configs`, label: "Notification Preferences" },
    { to: `${base}/enquiry_types`, label: "Enquiry Types" },
  ];
}

/** The sub-navigation of a customer's administration, the current screen marked. */
export function CustomerAdminNav({ customerId, generic }: { customerId: number; generic: boolean }) {
  return (
    <nav aria-label="Customer administration" data-testid="customer-admin-nav">
      <ul className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
        {customerAdminLinks(customerId, generic).map((l) => (
          <li key={l.to}>
            <NavLink to={l.to} end className={({ isActive }) => (isActive ? "font-semibold text-slate-900" : "text-sky-700 underline")}>
              {l.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
