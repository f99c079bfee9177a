import { readFileSync } from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import type { DbOrTx } from "../client.server";
import { PROJECT_ROOT } from "../paths";
import { dangerousGoodsTypes } from "../schema";
import { importDangerousGoodsCsv } from "../../app/modules/dangerous-goods/dangerous-goods.server";

/** At setup: the shipped list of common UN entries (data/dangerous-goods.csv) when the table is empty. */
export async function loadDangerousGoods(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(dangerousGoodsTypes);
  if ((row?.n ?? 0) > 0) return 0;
  const { created, skipped_total } = await importDangerousGoodsCsv(db, readFileSync(path.join(PROJECT_ROOT, "db/seed/data/dangerous-goods.csv"), "utf8"));
  if (skipped_total) throw new Error(`The shipped dangerous goods list has ${skipped_total} bad lines`);
  return created;
}
