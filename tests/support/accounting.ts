import type { Db } from "../../db/client.server";
import { accountingConnections, simulatedAccounting } from "../../db/schema";
import { SIMULATED_BUSINESS } from "../../app/modules/accounting/simulated.server";

/**
 * The accounting link authenticated without the consent round trip (accounting-link.test.ts drives
 * that one): an access token the simulated service knows, stored as the app's connection.
 */
export async function connectSimulatedMyob(db: Db, token = `test-token-${Date.now()}`): Promise<void> {
  const expiresAt = new Date(Date.now() + 3_600_000);
  await db.insert(simulatedAccounting).values({ kind: "token", key: `access:${token}`, data: { businessId: SIMULATED_BUSINESS.id, expiresAt: expiresAt.toISOString() } });
  await db
    .insert(accountingConnections)
    .values({ provider: "myob", businessId: SIMULATED_BUSINESS.id, businessName: SIMULATED_BUSINESS.name, accessToken: token, refreshToken: `r-${token}`, expiresAt })
    .onConflictDoUpdate({ target: accountingConnections.provider, set: { accessToken: token, refreshToken: `r-${token}`, expiresAt } });
}
