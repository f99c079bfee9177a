/**
 * Factories for every core record, used by the demo seed and by the tests, so both build
 * data the same way. Each takes overrides and fills the rest with valid, realistic values.
 */
import type { DbOrTx } from "../client.server";
import {
  addresses,
  carrierAccounts,
  carriers,
  customers,
  itemTypes,
  noticeReceipts,
  notices,
  services,
  siteServices,
  sites,
  users,
  userSites,
} from "../schema";
import { hashPassword } from "../../app/modules/auth/password.server";

type Insert<T extends { $inferInsert: unknown }> = T["$inferInsert"];

let counter = 0;
const next = () => `${Date.now().toString(36)}${(counter++).toString(36)}`.toUpperCase();

export const DEMO_PASSWORD = "Demo-password-12";

export async function createCustomer(db: DbOrTx, overrides: Partial<Insert<typeof customers>> = {}) {
  const code = overrides.code ?? `C${next()}`;
  const [row] = await db
    .insert(customers)
    .values({ name: `Customer ${code}`, code, supportEmail: "support@freightdesk.local", ...overrides })
    .returning();
  return row!;
}

export async function createSite(db: DbOrTx, customerId: number, overrides: Partial<Insert<typeof sites>> = {}) {
  const code = overrides.code ?? `S${next()}`;
  const [row] = await db
    .insert(sites)
    .values({
      customerId,
      code,
      name: `Site ${code}`,
      addressLine1: "1 Example Street",
      locality: "MELBOURNE",
      region: "VIC",
      postcode: "3000",
      country: "AUSTRALIA",
      som: "metric",
      openingTime: "08:00",
      closingTime: "17:00",
      timezone: "Australia/Melbourne",
      dgContactName: "Duty Manager",
      dgContactPhone: "03 9000 0000",
      csPhoneNumber: "1300 000 000",
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createUser(
  db: DbOrTx,
  customerId: number,
  overrides: Partial<Insert<typeof users>> & { password?: string; siteIds?: number[] } = {},
) {
  const { password = DEMO_PASSWORD, siteIds = [], ...values } = overrides;
  const email = values.email ?? `user-${next().toLowerCase()}@example.test`;
  const [row] = await db
    .insert(users)
    .values({
      customerId,
      email,
      fullName: "Test User",
      role: "despatcher",
      passwordHash: await hashPassword(password),
      ...values,
    })
    .returning();
  if (siteIds.length) await db.insert(userSites).values(siteIds.map((siteId) => ({ userId: row!.id, siteId })));
  return row!;
}

export async function createCarrier(db: DbOrTx, overrides: Partial<Insert<typeof carriers>> = {}) {
  const code = overrides.code ?? `CAR${next()}`;
  const [row] = await db
    .insert(carriers)
    .values({ name: `Carrier ${code}`, code, defaultEmail: "ops@carrier.example", ...overrides })
    .returning();
  return row!;
}

export async function createService(db: DbOrTx, carrierId: number, overrides: Partial<Insert<typeof services>> = {}) {
  const code = overrides.code ?? `SV${next()}`;
  const [row] = await db
    .insert(services)
    .values({ carrierId, code, name: `Service ${code}`, type: "road", ...overrides })
    .returning();
  return row!;
}

export async function createCarrierAccount(
  db: DbOrTx,
  siteId: number,
  carrierId: number,
  overrides: Partial<Insert<typeof carrierAccounts>> = {},
) {
  const [row] = await db
    .insert(carrierAccounts)
    .values({
      siteId,
      carrierId,
      accountNumber: `A${next()}`,
      supportEmail: "support@carrier.example",
      consignmentNumberPrefix: "CN",
      consignmentNumberDigits: 8,
      consignmentRangeStart: 1,
      consignmentRangeEnd: 99_999_999,
      manifestNumberPrefix: "M",
      manifestNumberDigits: 6,
      manifestRangeStart: 1,
      manifestRangeEnd: 999_999,
      ssccPrefix: "93012345",
      ssccDigits: 9,
      ssccRangeStart: 1,
      ssccRangeEnd: 999_999_999,
      ...overrides,
    })
    .returning();
  return row!;
}

export async function createSiteService(
  db: DbOrTx,
  siteId: number,
  serviceId: number,
  overrides: Partial<Insert<typeof siteServices>> = {},
) {
  const [row] = await db
    .insert(siteServices)
    .values({ siteId, serviceId, rateCode: "STD", markup: "15", surchargesMarkup: "10", ...overrides })
    .returning();
  return row!;
}

export async function createItemType(db: DbOrTx, customerId: number, overrides: Partial<Insert<typeof itemTypes>> = {}) {
  const [row] = await db
    .insert(itemTypes)
    .values({ customerId, name: "Carton", description: "Carton", length: "40", width: "30", height: "30", weight: "5", ...overrides })
    .returning();
  return row!;
}

export async function createAddress(db: DbOrTx, customerId: number, overrides: Partial<Insert<typeof addresses>> = {}) {
  const [row] = await db
    .insert(addresses)
    .values({
      customerId,
      name: `Recipient ${next()}`,
      addressLine1: "10 Sample Road",
      locality: "SYDNEY",
      region: "NSW",
      postcode: "2000",
      country: "AUSTRALIA",
      ...overrides,
    })
    .returning();
  return row!;
}

/** A notice, published to the given users (each gets an unseen receipt). */
export async function createNotice(
  db: DbOrTx,
  customerId: number,
  overrides: Partial<Insert<typeof notices>> & { publishTo?: number[] } = {},
) {
  const { publishTo = [], ...values } = overrides;
  const [row] = await db
    .insert(notices)
    .values({
      customerId,
      header: "Notice",
      content: "<p>Notice content</p>",
      published: publishTo.length > 0,
      ...values,
    })
    .returning();
  if (publishTo.length) await db.insert(noticeReceipts).values(publishTo.map((userId) => ({ noticeId: row!.id, userId })));
  return row!;
}
