/**
 * A second web process over the test server's PostgreSQL database: the app served again with its
 * own database handle, change feed and caches, as another host would run it. For the tests of what
 * web processes keep in memory (session-cache, token-cache).
 */
import { loadBuild } from "../../server/build";
import { serveApp, type TestServer } from "./server";

export async function startSecondProcess(server: TestServer): Promise<{ url: string; close(): Promise<void> }> {
  const { entry } = await loadBuild(process.cwd());
  const database = await entry.openDatabase({ url: server.test.database.url });
  const services = await entry.createServices(database, { baseUrl: "http://localhost", mailFrom: "test@freightdesk.local" });
  const app = await serveApp(services);
  return {
    url: app.url,
    async close() {
      await app.close();
      await entry.closeServices(services);
    },
  };
}
