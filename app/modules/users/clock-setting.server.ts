import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { users } from "../../../db/schema";
import type { ClockSetting } from "./clock-setting";

export { CLOCK_MESSAGES, clockSettingSchema, type ClockSetting } from "./clock-setting";

/** The user's own time zone and date format (null: inherit). */
export async function saveClockSetting(db: DbOrTx, userId: number, setting: ClockSetting): Promise<void> {
  await db.update(users).set({ timezone: setting.timezone, dateFormat: setting.date_format }).where(eq(users.id, userId));
}
