/**
 * The test server in a process of its own (see server-process.ts): the demo data and the
 * Melbourne-to-Brisbane localities, then "READY {url, cartonTypeId}" on stdout; SIGTERM closes it and drops
 * its database.
 */
import { eq } from "drizzle-orm";
import { itemTypes, localities } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { MEL_TO_BNE_LOCALITIES } from "./rating";
import { startTestServer } from "./server";

const server = await startTestServer();
await seedDemo(server.db);
await server.db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
process.once("SIGTERM", () => {
  void server.close().finally(() => process.exit(0));
});
process.stdout.write(`READY ${JSON.stringify({ url: server.url, cartonTypeId: carton?.id ?? null })}\n`);
