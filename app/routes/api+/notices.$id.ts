import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteNoticeFor, markNoticesSeen } from "~/modules/notices/notices.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

const putBody = z.object({ seen: z.literal(true, { error: "Only seen: true can be set here" }) });

/** DELETE /api/notices/{id} removes it from the user's list; PUT {seen: true} marks it seen. */
export async function action({ request, context, params: raw }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "DELETE", "PUT");
    const { user } = await requireApiUser(context, request);
    const id = idParam(raw.id, "Notice id");
    if (request.method === "DELETE") {
      await deleteNoticeFor(context.db, user, id);
      return { deleted: true };
    }
    parseOrThrow(putBody, await readBody(request));
    await markNoticesSeen(context.db, user, [id]);
    return { id, seen: true };
  });
}

export const loader = methodNotAllowed("DELETE", "PUT");
