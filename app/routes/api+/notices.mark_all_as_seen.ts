import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { markNoticesSeen, unseenNoticeCount } from "~/modules/notices/notices.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { parseOrThrow } from "~/utils/validation";
import { idSchema } from "~/utils/ids";

const body = z.object({ ids: z.array(idSchema("ids must be notice ids")).optional() });

/** POST /api/notices/mark_all_as_seen `{ ids? }`: marks those (or all) of the user's notices seen. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const { ids } = parseOrThrow(body, await readBody(request));
    const marked = await markNoticesSeen(context.db, user, ids);
    return { marked, unseen: await unseenNoticeCount(context.db, user) };
  });
}

export const loader = methodNotAllowed("POST");
