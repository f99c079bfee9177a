/**
 * What the consignment API tests share: a test server with the demo, its localities, rates and
 * dangerous goods, a despatcher and an admin signed in, and a complete consignment to vary.
 */
import { eq } from "drizzle-orm";
import { itemTypes } from "../../db/schema";
import { loadDangerousGoods } from "../../db/seed/dangerous-goods";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { futureDate, receiver, senders } from "./despatch";
import { Client, startTestServer, type TestServer } from "./server";

export { futureDate, receiver, type Json } from "./despatch";
export const sender = senders.MEL;

export interface ConsignmentWorld {
  server: TestServer;
  despatcher: Client;
  admin: Client;
  cartonTypeId: number;
  /** a complete consignment from Melbourne to Brisbane, with `over` laid on top */
  consignment(over?: Record<string, unknown>): Record<string, unknown>;
}

export async function startConsignmentWorld(): Promise<ConsignmentWorld> {
  const server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  await loadDangerousGoods(server.db);
  const despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  const admin = new Client(server.url);
  await admin.signIn("admin@example.com");
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  const cartonTypeId = carton!.id;
  const consignment = (over: Record<string, unknown> = {}) => ({
    site_code: "MEL",
    reference: "PO-1001",
    despatch_date: futureDate(),
    sender_address: sender,
    receiver_address: receiver,
    items: [{ quantity: 2, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }],
    ...over,
  });
  return { server, despatcher, admin, cartonTypeId, consignment };
}
