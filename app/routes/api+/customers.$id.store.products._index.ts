import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { storeProductsScreen, updateStoreProducts } from "~/modules/stores/stores.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/store/products: { store, products, itemTypes }. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return storeProductsScreen(context.db, user, idParam(params.id, "Customer id"));
  });
}

/** POST /api/customers/{id}/store/products {products: [{id, item_type_id, length, width, height, weight}]}: { products } (all or none saved). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return updateStoreProducts(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
  });
}
