import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, consignments, itemTypes, localities } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * The consignment screen and quick quote posted as a browser without JavaScript posts them: the
 * locality typed, no postcode or region picked (issue 13 §4 item 6).
 */
let server: TestServer;
let despatcher: Client;
let carton: number;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db, ["AUSTRALIA", "NEW ZEALAND"]);
  await seedRatingDemo(server.db);
  despatcher = new Client(server.url);
  await despatcher.signIn("despatcher@example.com");
  carton = (await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton")))[0]!.id;
}, 120_000);
afterAll(() => server.close());

const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
/** What the server-rendered form posts: the site's sender, a typed receiver, one carton. */
const form = (receiver: Record<string, string>, extra: Record<string, string> = {}) => ({
  resolve_places: "1",
  intent: "rate",
  version: "",
  reference: "TYPED-1",
  despatch_date: date,
  site_code: "MEL",
  "sender_address.name": "Melbourne DC",
  "sender_address.address_line_1": "120 Frankston Dandenong Road",
  "sender_address.locality": "DANDENONG SOUTH",
  "sender_address.postcode": "3175",
  "sender_address.region": "VIC",
  "sender_address.country": "AUSTRALIA",
  "sender_address.address_type": "business",
  "receiver_address.name": "Perth Outdoor Supplies",
  "receiver_address.address_line_1": "22 Great Eastern Highway",
  "receiver_address.postcode": "",
  "receiver_address.region": "",
  "receiver_address.country": "AUSTRALIA",
  "receiver_address.address_type": "business",
  ...Object.fromEntries(Object.entries(receiver).map(([k, v]) => [`receiver_address.${k}`, v])),
  "items.0.quantity": "1",
  "items.0.item_type_id": String(carton),
  "items.0.length": "40",
  "items.0.width": "30",
  "items.0.height": "30",
  "items.0.weight_in_uom": "8",
  account_payable: "sender",
  ...extra,
});

/** The page as a person reads it: entities decoded. */
const post = async (path: string, body: Record<string, string>) => {
  const res = await despatcher.request(path, { form: body });
  const html = (await res.text()).replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  return { res, html };
};
const inputValue = (html: string, name: string) => new RegExp(`<input[^>]*name="${name.replace(/\./g, "\\.")}"[^>]*value="([^"]*)"`).exec(html)?.[1];
const placeId = async (locality: string, postcode: string) =>
  (await server.db.select({ id: localities.id }).from(localities).where(and(eq(localities.locality, locality), eq(localities.postcode, postcode))))[0]!.id;

describe("the consignment screen without JavaScript", () => {
  it("renders the field that tells the server the places are typed", async () => {
    const html = await (await despatcher.request("/")).text();
    expect(html).toMatch(/<input type="hidden" name="resolve_places" value="1"\/>/);
  });

  it("Get rates on a typed locality that only one place has: the place is filled in and the rates shown", async () => {
    const { html } = await post("/?index", form({ locality: "rivervale" }));
    expect(html).not.toContain("Invalid input");
    expect(html).not.toContain("Cannot rate yet");
    expect(html).toContain('data-testid="rate"');
    expect(inputValue(html, "receiver_address.locality")).toBe("RIVERVALE");
    expect(inputValue(html, "receiver_address.postcode")).toBe("6103");
    expect(inputValue(html, "receiver_address.region")).toBe("WA");
    expect(inputValue(html, "reference")).toBe("TYPED-1");
  });

  it("several places: a labelled choice in the address, what was typed kept; choosing one rates", async () => {
    const { html } = await post("/?index", form({ locality: "Richmond" }));
    expect(html).toContain("Cannot rate yet: Choose the receiver's locality");
    expect(html).toContain("<legend");
    expect(html).toContain("Recipient locality: choose one");
    expect(html).toMatch(/<input type="radio" name="receiver_address\.place_id" value="\d+"\/>RICHMOND VIC 3121/);
    expect(html).not.toContain('data-testid="rate"');
    expect(inputValue(html, "reference")).toBe("TYPED-1");
    expect(inputValue(html, "receiver_address.locality")).toBe("Richmond");
    expect(inputValue(html, "receiver_address.name")).toBe("Perth Outdoor Supplies");

    const chosen = await post("/?index", form({ locality: "Richmond", place_id: String(await placeId("RICHMOND", "3121")) }));
    expect(chosen.html).toContain('data-testid="rate"');
    expect(inputValue(chosen.html, "receiver_address.postcode")).toBe("3121");
    expect(inputValue(chosen.html, "receiver_address.region")).toBe("VIC");
  });

  it("no place: the field says so in words; nothing of zod's reaches the page", async () => {
    const { html } = await post("/?index", form({ locality: "Xyzville" }));
    expect(html).toContain('No locality matches "Xyzville" in Australia');
    expect(html).not.toContain("Invalid input");
    const blank = await post("/?index", form({ name: "", address_line_1: "", locality: "" }));
    expect(blank.html).toContain("Please enter a locality");
    expect(blank.html).not.toContain("Invalid input");
    const odd = await post("/?index", form({ locality: "RIVERVALE" }, { "items.0.item_type_id": "carton" }));
    expect(odd.html).toContain("Please check the item type");
    expect(odd.html).not.toContain("Invalid input");
  });

  it("Save resolves the typed place too: saved with its postcode and state", async () => {
    const { res } = await post("/?index", form({ locality: "RIVERVALE" }, { intent: "save", reference: "TYPED-SAVE" }));
    expect(res.status).toBe(302);
    const id = Number(/\/consignment\/(\d+)\?saved=complete/.exec(res.headers.get("location") ?? "")![1]);
    const [row] = await server.db.select({ receiver: consignments.receiverAddressId }).from(consignments).where(eq(consignments.id, id));
    const [address] = await server.db.select().from(addresses).where(eq(addresses.id, row!.receiver!));
    expect(address).toMatchObject({ locality: "RIVERVALE", postcode: "6103", region: "WA" });
  });

  it("Save with several places saves nothing and offers the choice", async () => {
    const before = (await server.db.select({ id: consignments.id }).from(consignments)).length;
    const { res, html } = await post("/?index", form({ locality: "RICHMOND" }, { intent: "save" }));
    expect(res.status).toBe(200);
    expect(html).toContain("Unable to save. Choose the receiver's locality");
    expect(html).toContain("RICHMOND TAS 7025");
    expect((await server.db.select({ id: consignments.id }).from(consignments)).length).toBe(before);
  });

  it("with JavaScript (no such field) nothing changes: the typeahead's post is saved as it came", async () => {
    const body: Record<string, string> = form({ locality: "RIVERVALE" }, { intent: "save", reference: "TYPED-JS" });
    delete body.resolve_places;
    const { res } = await post("/?index", body);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/saved=incomplete/);
  });
});

describe("the other screens of the same form", () => {
  it("a third-party pickup resolves both typed ends: one filled in, the other a choice", async () => {
    const body = form(
      { locality: "RICHMOND" },
      { "sender_address.name": "Pickup Co", "sender_address.locality": "rivervale", "sender_address.postcode": "", "sender_address.region": "" },
    );
    const { html } = await post("/thirdparty", body);
    expect(html).toContain("Cannot rate yet: Choose the receiver's locality");
    expect(html).toContain("Deliver to locality: choose one");
    expect(inputValue(html, "sender_address.postcode")).toBe("6103");
    expect(inputValue(html, "sender_address.region")).toBe("WA");
  });

  it("the rating call names a missing postcode as the spec does, not as zod does", async () => {
    const { status, body } = await despatcher.json<{ errors: Record<string, string[]> }>("/api/carrier_selection", {
      json: { site_code: "MEL", despatch_date: date, sender_locality: "DANDENONG SOUTH", sender_postcode: "3175", receiver_locality: "RIVERVALE", receiver_postcode: null, items: [{ quantity: 1, length: 1, width: 1, height: 1, weight_in_uom: 1 }] },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ receiver_postcode: ["Invalid receiver locality"] });
  });
});

describe("quick quote without JavaScript", () => {
  const quick = (receiver: string, extra: Record<string, string> = {}) => ({
    resolve_places: "1",
    site_code: "MEL",
    despatch_date: date,
    sender_postcode: "3175",
    sender_locality: "DANDENONG SOUTH",
    receiver_postcode: "",
    receiver_locality: receiver,
    "items.0.quantity": "1",
    "items.0.length": "40",
    "items.0.width": "30",
    "items.0.height": "30",
    "items.0.weight_in_uom": "10",
    ...extra,
  });

  it("a typed locality only one place has is quoted, its postcode filled in", async () => {
    const { html } = await post("/quick_quote", quick("Rivervale"));
    expect(html).toContain('data-testid="quick-quote"');
    expect(inputValue(html, "receiver_postcode")).toBe("6103");
    expect(html).not.toContain("Invalid input");
  });

  it("several places are a choice; the chosen one is quoted", async () => {
    const { res, html } = await post("/quick_quote", quick("RICHMOND"));
    expect(res.status).toBe(422);
    expect(html).toContain("Choose the receiver's locality");
    expect(html).toMatch(/<input type="radio" name="receiver_place_id" value="\d+"\/>RICHMOND VIC 3121/);
    expect(inputValue(html, "items.0.weight_in_uom")).toBe("10");
    const chosen = await post("/quick_quote", quick("RICHMOND", { receiver_place_id: String(await placeId("RICHMOND", "3121")) }));
    expect(chosen.html).toContain('data-testid="quick-quote"');
  });

  it("an unknown locality says so", async () => {
    const { html } = await post("/quick_quote", quick("Xyzville"));
    expect(html).toContain('No locality matches "Xyzville" in Australia');
    expect(html).not.toContain('data-testid="quick-quote"');
  });
});
