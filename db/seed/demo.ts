import { count, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../client.server";
import { customers, notificationConfigs, notificationTypes, printers, ticketCategories, users } from "../schema";
import {
  DEMO_PASSWORD,
  createAddress,
  createCarrier,
  createCarrierAccount,
  createCustomer,
  createItemType,
  createNotice,
  createService,
  createSite,
  createSiteService,
  createUser,
} from "./factories";
import { seedRatingDemo } from "./rating-demo";
import { seedDemoInvoices } from "./invoices";
import { seedDemoInvoicing } from "./invoices/invoicing";
import { seedReconciliationStates } from "./invoices/reconciliation-states";

export const DEMO_USERS = [
  { email: "despatcher@example.com", fullName: "Dana Despatcher", role: "despatcher" },
  { email: "superdespatcher@example.com", fullName: "Sam Superdespatcher", role: "despatcher", superDespatcher: true, canEditRecipients: true, canBook: true, canBulkupload: true },
  { email: "admin@example.com", fullName: "Alex Admin", role: "admin" },
  { email: "superadmin@example.com", fullName: "Sky Superadmin", role: "super_admin" },
  { email: "customerservice@example.com", fullName: "Casey Service", role: "customer_service" },
  { email: "devs@example.com", fullName: "Devon Developer", role: "devs" },
  {
    email: "finance@example.com",
    fullName: "Fran Finance",
    role: "despatcher",
    canExport: true,
    canReconcile: true,
    options: { view: "FINANCE" as const },
  },
] as const;

/** Loads the demo data set when the database has no customers yet. Returns whether it loaded. */
export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const [{ n }] = (await db.select({ n: count() }).from(customers)) as [{ n: number }];
  if (Number(n) > 0) return false;
  await db.transaction(async (tx) => {
    const demo = await seedDemo(tx);
    await seedNotificationDemo(tx, demo.acme.id);
    await seedEnquiryTypesDemo(tx, [demo.acme.id, demo.testCustomer.id]);
  });
  // zones, rate cards, levies and surcharges so the demo can rate anywhere in Australia
  await seedRatingDemo(db);
  // despatched consignments and their carrier invoices, so finance has work on a fresh start
  await seedDemoInvoices(db);
  // one line disputed with a note, so every tab of the reconciliations list has a line
  await seedReconciliationStates(db);
  // one customer invoice with its PDF and one weekly invoicing schedule, so receivable has work too
  await seedDemoInvoicing(db);
  return true;
}

/** The demo data set (README "Demo sign-ins"): one transaction, so a failed load leaves nothing. */
export async function seedDemo(db: DbOrTx) {
  const acme = await createCustomer(db, {
    code: "ACME",
    name: "Acme Distribution",
    supportEmail: "support@acme.example",
    mergingEnabled: true,
    options: { merge_limit: 4, view_item_references: true, session_timeout: 720 },
  });
  const testCustomer = await createCustomer(db, { code: "TESTCO", name: "Testing Pty Ltd", testAccount: true });
  const oldCustomer = await createCustomer(db, { code: "OLDCO", name: "Old Traders", disabled: true });

  const melbourne = await createSite(db, acme.id, {
    code: "MEL",
    name: "Melbourne DC",
    addressLine1: "120 Frankston Dandenong Road",
    locality: "DANDENONG SOUTH",
    region: "VIC",
    postcode: "3175",
    timezone: "Australia/Melbourne",
  });
  const sydney = await createSite(db, acme.id, {
    code: "SYD",
    name: "Sydney DC",
    addressLine1: "45 Victoria Street",
    locality: "WETHERILL PARK",
    region: "NSW",
    postcode: "2164",
    timezone: "Australia/Sydney",
    dgContactPhone: "02 9000 0000",
  });
  const losAngeles = await createSite(db, acme.id, {
    code: "LAX",
    name: "Los Angeles Warehouse",
    addressLine1: "1200 E 7th Street",
    locality: "LOS ANGELES",
    region: "CA",
    postcode: "90021",
    country: "UNITED STATES OF AMERICA",
    som: "imperial",
    timezone: "America/Los_Angeles",
    dgContactPhone: "+1 213 555 0100",
    csPhoneNumber: "+1 800 555 0100",
  });
  await createSite(db, testCustomer.id, { code: "TST", name: "Test Site" });
  await createSite(db, oldCustomer.id, { code: "OLD", name: "Old Site" });

  const allAcmeSites = [melbourne.id, sydney.id, losAngeles.id];
  const userIds: number[] = [];
  for (const demo of DEMO_USERS) {
    const isStaff = demo.role !== "despatcher";
    const user = await createUser(db, acme.id, {
      ...demo,
      options: "options" in demo ? { ...demo.options } : {},
      password: DEMO_PASSWORD,
      phoneNumber: "0400 000 000",
      // staff see every site of the customer they work in; despatchers their assigned sites
      siteIds: isStaff ? [] : "superDespatcher" in demo ? allAcmeSites : [melbourne.id, sydney.id],
      defaultSiteId: isStaff ? null : melbourne.id,
    });
    userIds.push(user.id);
  }
  await createUser(db, testCustomer.id, { email: "tester@example.com", fullName: "Terry Tester" });

  // Carriers: Australia Post (despatched separately, spec 1 section 9), a road carrier, and the
  // simulated carrier whose despatch can be told to fail.
  const auspost = await createCarrier(db, { code: "auspost", name: "Australia Post", webUrl: "https://auspost.com.au/mypost/track" });
  const northline = await createCarrier(db, { code: "NORTHLINE", name: "Northline", webUrl: "https://www.northline.com.au", printConsignments: true });
  const simex = await createCarrier(db, { code: "SIMEX", name: "Simulated Express", generic: false, pickupAt: true, printConsignments: true, options: { adapter: "simulated" } });

  const services = {
    parcel: await createService(db, auspost.id, { code: "PP", name: "Parcel Post", type: "general" }),
    express: await createService(db, auspost.id, { code: "EXP", name: "Express Post", type: "overnight" }),
    road: await createService(db, northline.id, { code: "GEN", name: "General Road", type: "road" }),
    roadExpress: await createService(db, northline.id, { code: "RXP", name: "Road Express", type: "road" }),
    overnight: await createService(db, simex.id, { code: "ONT", name: "Overnight", type: "overnight" }),
    sameday: await createService(db, simex.id, { code: "SDY", name: "Same Day", type: "sameday", pickupAt: true }),
  };

  const prefixes: Record<string, string> = { auspost: "AP", NORTHLINE: "NL", SIMEX: "SX" };
  const carrierServices = [
    { carrier: auspost, list: [services.parcel, services.express] },
    { carrier: northline, list: [services.road, services.roadExpress] },
    { carrier: simex, list: [services.overnight, services.sameday] },
  ];
  let block = 0;
  for (const site of [melbourne, sydney, losAngeles]) {
    for (const { carrier, list } of carrierServices) {
      if (site.country !== "AUSTRALIA" && carrier.code !== "SIMEX") continue;
      block++;
      const account = await createCarrierAccount(db, site.id, carrier.id, {
        accountNumber: `${prefixes[carrier.code]}${site.code}001`,
        consignmentNumberPrefix: `${prefixes[carrier.code]}${site.code}`,
        consignmentNumberDigits: 7,
        consignmentRangeStart: block * 1_000_000,
        consignmentRangeEnd: block * 1_000_000 + 999_999,
        manifestNumberPrefix: `M${prefixes[carrier.code]}`,
        manifestRangeStart: block * 10_000,
        manifestRangeEnd: block * 10_000 + 9_999,
        ssccRangeStart: block * 10_000_000,
        ssccRangeEnd: block * 10_000_000 + 9_999_999,
        supportEmail: `support@${carrier.code.toLowerCase()}.example`,
      });
      for (const service of list) {
        await createSiteService(db, site.id, service.id, { carrierAccountId: account.id, rateCode: "STD" });
      }
    }
  }

  const itemTypeRows = [
    { name: "Carton", description: "Carton", length: "40", width: "30", height: "30", weight: "5", increments: "1", sequence: 1 },
    { name: "Pallet", description: "Standard pallet", length: "120", width: "120", height: "150", weight: "300", increments: "10", labels: 2, sequence: 2 },
    { name: "Skid", description: "Skid", length: "110", width: "110", height: "100", weight: "150", increments: "5", sequence: 3 },
    { name: "Satchel", description: "Satchel 3 kg", length: "35", width: "25", height: "5", weight: "1", increments: "0.5", sequence: 4 },
  ] as const;
  for (const t of itemTypeRows) await createItemType(db, acme.id, { ...t });

  // printers: a PDF printer of each kind and a thermal (ZPL) label printer; every demo user starts configured
  const printerRows = await db
    .insert(printers)
    .values([
      { customerId: acme.id, name: "Desk printer (PDF)", printerType: "Label" as const, format: "pdf" as const },
      { customerId: acme.id, name: "Zebra thermal (ZPL)", printerType: "Label" as const, format: "zpl" as const },
      { customerId: acme.id, name: "Office A4 (PDF)", printerType: "Manifest" as const, format: "pdf" as const },
      { customerId: acme.id, name: "Office A4 (PDF)", printerType: "Connote" as const, format: "pdf" as const },
    ])
    .returning();
  const configured = { label: printerRows[0]!.id, manifest: printerRows[2]!.id, connote: printerRows[3]!.id };
  for (const id of userIds) await db.update(users).set({ options: sql`${users.options} || ${JSON.stringify({ printers: configured })}::jsonb` }).where(eq(users.id, id));

  const recipients = [
    { name: "Brisbane Hardware", addressLine1: "5 Ipswich Road", locality: "WOOLLOONGABBA", region: "QLD", postcode: "4102" },
    { name: "Perth Outdoor Supplies", addressLine1: "22 Great Eastern Highway", locality: "RIVERVALE", region: "WA", postcode: "6103" },
    { name: "Adelaide Office Co", addressLine1: "80 Grenfell Street", locality: "ADELAIDE", region: "SA", postcode: "5000" },
    { name: "Hobart Marine", addressLine1: "3 Salamanca Place", locality: "HOBART", region: "TAS", postcode: "7000" },
    { name: "Auckland Retail Ltd", addressLine1: "12 Queen Street", sublocality: "AUCKLAND CENTRAL", locality: "AUCKLAND", region: null, postcode: "1010", country: "NEW ZEALAND" },
  ];
  for (const r of recipients) await createAddress(db, acme.id, { ...r, email: "receiving@example.net", phone: "07 3000 0000" });

  const now = Date.now();
  const published = [
    { header: "Welcome to FreightDesk", content: "<p>Enter consignments, get rates from every carrier and print labels in one place.</p>" },
    { header: "Public holiday cut-off times", content: "<p>Carriers collect <strong>before 2 pm</strong> on the day before a public holiday.</p>" },
    { header: "New: keyboard shortcuts", content: "<p>Press <em>Alt+S</em> to save a consignment without leaving the keyboard.</p>" },
  ];
  for (const [i, n] of published.entries()) {
    await createNotice(db, acme.id, { ...n, publishAt: new Date(now - (i + 1) * 86_400_000), publishTo: userIds });
  }

  // the kinds of notification every install offers (super admins may add more)
  const [email, sms] = await db
    .insert(notificationTypes)
    .values([
      { name: "Email", fieldName: "email", maxLength: null },
      { name: "SMS", fieldName: "phone", maxLength: 160 },
    ])
    .returning();

  return { acme, testCustomer, oldCustomer, sites: { melbourne, sydney, losAngeles }, notificationTypes: { email: email!, sms: sms! } };
}

/**
 * The demo's receivers hear when their goods are on board and delivered (kept out of seedDemo, so
 * the tests' worlds send no notification they did not set up).
 */
export async function seedNotificationDemo(db: DbOrTx, customerId: number) {
  const [email] = await db.select().from(notificationTypes).where(eq(notificationTypes.name, "Email"));
  await db.insert(notificationConfigs).values([
    {
      customerId,
      parentType: "customer",
      parentId: customerId,
      notificationTypeId: email!.id,
      consignmentState: "on_board_for_delivery",
      template:
        "<p>Hello {{ receiver_name }},</p><p>Your delivery from {{ sender_name }} ({{ carrier_name }} consignment {{ consignment_number }}) is on board for delivery today.</p><p>Follow it here: <a href=\"{{ public_tracking_url }}\">{{ public_tracking_url }}</a></p>",
    },
    {
      customerId,
      parentType: "customer",
      parentId: customerId,
      notificationTypeId: email!.id,
      consignmentState: "delivered_with_pod",
      template: "<p>Hello {{ receiver_name }},</p><p>{{ carrier_name }} consignment {{ consignment_number }} from {{ sender_name }} has been delivered.</p><p>Proof of delivery: <a href=\"{{ public_tracking_url }}\">{{ public_tracking_url }}</a></p>",
    },
  ]);
}

/** The enquiry types the demo customers start with (staff keep them on /customers/{id}/enquiry_types). */
export const DEMO_ENQUIRY_TYPES = ["Delivery delay", "Damaged goods", "Missing items", "Other"] as const;

export async function seedEnquiryTypesDemo(db: DbOrTx, customerIds: number[]) {
  await db.insert(ticketCategories).values(customerIds.flatMap((customerId) => DEMO_ENQUIRY_TYPES.map((name, i) => ({ customerId, name, position: i + 1 }))));
}
