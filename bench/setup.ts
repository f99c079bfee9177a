/**
 * The bench's server and data: the demo data, the full locality lists, the rating demo, ten
 * services at the Melbourne site, and a signed-in despatcher.
 */
import { eq } from "drizzle-orm";
import { seedDemo } from "../db/seed/demo";
import { loadLocalities } from "../db/seed/localities";
import { seedRatingDemo } from "../db/seed/rating-demo";
import { createService, createSiteService } from "../db/seed/factories";
import { rateLanes, services, users } from "../db/schema";
import { loadCurrentUser, type CurrentUser } from "../app/modules/auth/current-user.server";
import { Client, type TestServer } from "../tests/support/server";
import { load } from "./measure";

export interface Bench {
  server: TestServer;
  demo: Awaited<ReturnType<typeof seedDemo>>;
  /** signed in as the demo despatcher */
  client: Client;
  /** the despatcher's session cookie, answers in JSON */
  headers: { cookie: string; accept: string };
  despatcher: CurrentUser;
}

export async function prepareBench(server: TestServer): Promise<Bench> {
  const demo = await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  // ten services at the Melbourne site: the six demo ones and four more on the road carrier's card
  const [road] = await server.db.select().from(services).where(eq(services.code, "GEN"));
  const roadLanes = await server.db.select().from(rateLanes).where(eq(rateLanes.serviceId, road!.id));
  for (const code of ["B1", "B2", "B3", "B4"]) {
    const extra = await createService(server.db, road!.carrierId, { code, name: `Bench ${code}`, type: "road" });
    await createSiteService(server.db, demo.sites.melbourne.id, extra.id, { rateCode: "STD" });
    for (let i = 0; i < roadLanes.length; i += 1000) {
      await server.db.insert(rateLanes).values(roadLanes.slice(i, i + 1000).map(({ id: _id, createdAt: _c, ...l }) => ({ ...l, serviceId: extra.id })));
    }
  }
  const client = new Client(server.url);
  await client.signIn("despatcher@example.com");
  const headers = { cookie: client.cookie, accept: "application/json" };

  // warm up
  await load(50, 5, () => fetch(`${server.url}/api/users/current`, { headers }));
  const [despatcherRow] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "despatcher@example.com"));
  const despatcher = (await loadCurrentUser(server.db, despatcherRow!.id))!;
  return { server, demo, client, headers, despatcher };
}
