import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { PreferencesScreen, preferencesLinks } from "~/components/notifications/PreferencesScreen";
import type { ParentRef } from "~/modules/notifications/configs.server";
import { preferencesRoute } from "~/modules/notifications/preferences.server";
import { pageId } from "~/utils/ids";

/** /customers/{customerId}/sites/{siteId}/notification_configs: a site's notification preferences (devs, super admins and admins; others go to "/"). */

export const links: LinksFunction = preferencesLinks;
export const meta: MetaFunction = () => [{ title: "Notification Preferences · FreightDesk" }];

/** The site of the path, which must be the customer's (else 404). */
const refOf = (params: LoaderFunctionArgs["params"]): ParentRef => ({ type: "site", id: pageId(params.siteId), customerId: pageId(params.customerId) });

export function loader(args: LoaderFunctionArgs) {
  return preferencesRoute(refOf).loader(args);
}

/** intent=save (the template, and at a customer or site the accounts chosen to take it too) or intent=remove. */
export function action(args: ActionFunctionArgs) {
  return preferencesRoute(refOf).action(args);
}

export default PreferencesScreen;
