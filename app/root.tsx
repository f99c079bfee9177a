import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteError,
} from "@remix-run/react";
import { FocusAfterSubmit } from "./components/FocusAfterSubmit";
import stylesheet from "./tailwind.css";
import { useNonce } from "./utils/nonce";
// zod's default wording never reaches a person, in the browser either
import "./utils/zod-messages";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "FreightDesk" }];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en-AU" className="h-full bg-slate-50">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="h-full text-slate-900">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <>
      <Outlet />
      <FocusAfterSubmit />
    </>
  );
}

/** Last resort for errors outside the app shell (the shell has its own boundary). */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-xl font-semibold">{status === 404 ? "Page not found" : "Something went wrong"}</h1>
      <p className="mt-2 text-slate-600">
        {status === 404 ? "That page does not exist." : "Please try again. If it keeps happening, contact tech support."}
      </p>
      <Link to="/" className="btn mt-4">
        Go to the start page
      </Link>
    </main>
  );
}
