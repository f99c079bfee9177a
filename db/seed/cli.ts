/** `npm run db:seed`: migrate the configured database and load the demo data when it is empty. */
import { migrateDatabase, openDatabase } from "../client.server";
import { seedDemoIfEmpty } from "./demo";
import { loadLocalities } from "./localities";
import { loadDangerousGoods } from "./dangerous-goods";

const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: process.env.PGLITE_DIR });
await migrateDatabase(database);
console.log("Localities added:", await loadLocalities(database.db));
console.log("Dangerous goods entries added:", await loadDangerousGoods(database.db));
const loaded = await seedDemoIfEmpty(database.db);
console.log(loaded ? "Demo data loaded." : "Database already has data; nothing loaded.");
await database.close();
