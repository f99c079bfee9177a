import { Outlet } from "@remix-run/react";

export default function AuthLayout() {
  return (
    <main className="flex min-h-full items-center justify-center p-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2 text-sky-800">
          <img src="/favicon.svg" alt="" className="h-8 w-8" />
          <span className="text-2xl font-semibold">FreightDesk</span>
        </div>
        <Outlet />
      </div>
    </main>
  );
}
