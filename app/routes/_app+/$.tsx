import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ComingLater } from "~/components/ComingLater";
import { requireUser } from "~/modules/auth/guard.server";
import { firstSegment } from "~/modules/auth/roles";
import { PLANNED_SCREENS } from "~/modules/shell/planned";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "FreightDesk"} · FreightDesk` }];

/** Unknown paths go to "/"; screens of later releases say so (after the same access checks). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(context, request);
  const planned = PLANNED_SCREENS[firstSegment(new URL(request.url).pathname)];
  if (!planned) throw redirect("/");
  return planned;
}

export default function Planned() {
  const planned = useLoaderData<typeof loader>();
  return <ComingLater title={planned.title} release={planned.release} />;
}
