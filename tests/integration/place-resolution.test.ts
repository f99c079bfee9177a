import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localities } from "../../db/schema";
import { loadLocalities } from "../../db/seed/localities";
import { MAX_CHOICES, resolveFormPlaces, resolvePlace, type PlaceEnd, type PlaceResolution } from "../../app/modules/localities/resolve.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

/** Typed places (no JavaScript) resolved against the real localities of Australia and New Zealand. */
let test: TestDatabase;
let db: TestDatabase["database"]["db"];

beforeAll(async () => {
  test = await createTestDatabase();
  db = test.database.db;
  await loadLocalities(db, ["AUSTRALIA", "NEW ZEALAND"]);
}, 120_000);
afterAll(() => test.drop());

const AU = "AUSTRALIA" as const;
const where = (r: PlaceResolution) => (r.status === "found" ? `${r.place.locality} ${r.place.region ?? ""} ${r.place.postcode}`.replace("  ", " ") : r.status);
const offered = (r: PlaceResolution) => (r.status === "choose" ? r.places.map((p) => `${p.locality} ${p.region} ${p.postcode}`) : []);
const idOf = async (locality: string, postcode: string) =>
  (await db.select({ id: localities.id }).from(localities).where(and(eq(localities.locality, locality), eq(localities.postcode, postcode))))[0]!.id;

describe("resolvePlace", () => {
  it("a name only one place has fills it, whatever its case", async () => {
    expect(where(await resolvePlace(db, { name: " rivervale ", country: AU }))).toBe("RIVERVALE WA 6103");
  });

  it("a name several places have is a choice, listed as LOCALITY STATE POSTCODE", async () => {
    const r = await resolvePlace(db, { name: "Richmond", country: AU });
    expect(r.status).toBe("choose");
    expect(offered(r)).toEqual(expect.arrayContaining(["RICHMOND VIC 3121", "RICHMOND NSW 2753", "RICHMOND TAS 7025"]));
    expect(r.status === "choose" && r.more).toBe(false);
  });

  it("the postcode, or a typed state, tells which of them", async () => {
    expect(where(await resolvePlace(db, { name: "RICHMOND", postcode: "3121", country: AU }))).toBe("RICHMOND VIC 3121");
    expect(where(await resolvePlace(db, { name: "RICHMOND", region: "tas", country: AU }))).toBe("RICHMOND TAS 7025");
    // a state that is not one of them narrows nothing
    expect((await resolvePlace(db, { name: "RICHMOND", region: "NT", country: AU })).status).toBe("choose");
  });

  it("a postcode alone fills the place when it has one locality, else offers its localities", async () => {
    expect(where(await resolvePlace(db, { postcode: "6103", country: AU }))).toBe("RIVERVALE WA 6103");
    expect(offered(await resolvePlace(db, { postcode: "2000", country: AU }))).toEqual(expect.arrayContaining(["HAYMARKET NSW 2000", "THE ROCKS NSW 2000"]));
  });

  it("a city means its street addresses, not its post office box or large volume receiver postcodes", async () => {
    expect(where(await resolvePlace(db, { name: "SYDNEY", country: AU }))).toBe("SYDNEY NSW 2000");
    expect(where(await resolvePlace(db, { name: "ADELAIDE", country: AU }))).toBe("ADELAIDE SA 5000");
    // two street postcodes: those first, a choice
    expect(offered(await resolvePlace(db, { name: "MELBOURNE", country: AU })).slice(0, 2)).toEqual(["MELBOURNE VIC 3000", "MELBOURNE VIC 3004"]);
  });

  it("never silently replaces what was typed: another postcode, or only the start of a name, is a choice", async () => {
    const wrongPostcode = await resolvePlace(db, { name: "RIVERVALE", postcode: "6000", country: AU });
    expect(offered(wrongPostcode)).toEqual(["RIVERVALE WA 6103"]);
    const started = await resolvePlace(db, { name: "RIVERVAL", country: AU });
    expect(offered(started)).toContain("RIVERVALE WA 6103");
  });

  it("the choice made among those offered fills the place; an id not offered for this text does not", async () => {
    const vic = await idOf("RICHMOND", "3121");
    expect(where(await resolvePlace(db, { name: "RICHMOND", country: AU }, vic))).toBe("RICHMOND VIC 3121");
    const elsewhere = await idOf("RIVERVALE", "6103");
    expect((await resolvePlace(db, { name: "RICHMOND", country: AU }, elsewhere)).status).toBe("choose");
  });

  it("a long list stops at its limit and says there are more", async () => {
    const r = await resolvePlace(db, { name: "SPR", country: AU });
    expect(r.status).toBe("choose");
    expect(r.status === "choose" && r.places.length).toBe(MAX_CHOICES);
    expect(r.status === "choose" && r.more).toBe(true);
  });

  it("nothing matching is none; nothing typed is blank", async () => {
    expect((await resolvePlace(db, { name: "XYZVILLE", country: AU })).status).toBe("none");
    expect((await resolvePlace(db, { name: "XY", country: AU })).status).toBe("none");
    expect((await resolvePlace(db, { postcode: "6999", country: AU })).status).toBe("none");
    expect((await resolvePlace(db, { name: "  ", postcode: "", country: AU })).status).toBe("blank");
  });

  it("looks in the address's own country: a New Zealand suburb, with no region", async () => {
    const r = await resolvePlace(db, { name: "auckland central", country: "NEW ZEALAND" });
    expect(r).toMatchObject({ status: "found", place: { sublocality: "AUCKLAND CENTRAL", locality: "AUCKLAND", postcode: "1010", region: null } });
    expect((await resolvePlace(db, { name: "RIVERVALE", country: "NEW ZEALAND" })).status).toBe("none");
  });
});

describe("resolveFormPlaces", () => {
  const end = (side: "sender" | "receiver"): PlaceEnd => ({
    key: `${side}_address`,
    who: side,
    fields: { locality: `${side}_address.locality`, sublocality: `${side}_address.sublocality`, postcode: `${side}_address.postcode`, region: `${side}_address.region`, country: `${side}_address.country`, choice: `${side}_address.place_id` },
  });
  const ends = [end("sender"), end("receiver")];
  const typed = {
    reference: "KEEP-ME",
    "sender_address.name": "Melbourne DC",
    "sender_address.locality": "DANDENONG SOUTH",
    "sender_address.postcode": "3175",
    "sender_address.region": "VIC",
    "receiver_address.name": "Perth Outdoor Supplies",
    "receiver_address.locality": "rivervale",
    "receiver_address.postcode": "",
    "receiver_address.region": "",
    "receiver_address.country": "AUSTRALIA",
  };

  it("fills each resolved place and leaves everything else as typed", async () => {
    const r = await resolveFormPlaces(db, typed, ends, { required: true });
    expect(r.problems).toEqual([]);
    expect(r.values).toEqual({ ...typed, "receiver_address.locality": "RIVERVALE", "receiver_address.postcode": "6103", "receiver_address.region": "WA", "receiver_address.sublocality": "", "sender_address.sublocality": "" });
  });

  it("offers a choice by address, with its field's message, and takes the answer on the next post", async () => {
    const r = await resolveFormPlaces(db, { ...typed, "receiver_address.locality": "RICHMOND" }, ends, { required: true });
    expect(r.problems).toEqual(["Choose the receiver's locality"]);
    expect(r.errors).toEqual({ "receiver_address.locality": ["Choose the receiver's locality"] });
    const choice = r.choices.receiver_address!;
    expect(choice.name).toBe("receiver_address.place_id");
    const vic = choice.places.find((p) => p.label === "RICHMOND VIC 3121")!;
    expect(r.values.reference).toBe("KEEP-ME");
    const answered = await resolveFormPlaces(db, { ...r.values, "receiver_address.place_id": String(vic.id) }, ends, { required: true });
    expect(answered.problems).toEqual([]);
    expect(answered.values).toMatchObject({ "receiver_address.postcode": "3121", "receiver_address.region": "VIC" });
    expect(answered.values).not.toHaveProperty("receiver_address.place_id");
  });

  it("says plainly when nothing matches, naming the country; a missing place only when it is required", async () => {
    const none = await resolveFormPlaces(db, { ...typed, "receiver_address.locality": "XYZVILLE" }, ends, { required: true });
    expect(none.errors).toEqual({ "receiver_address.locality": ['No locality matches "XYZVILLE" in Australia'] });
    const blank = { ...typed, "receiver_address.locality": "" };
    expect((await resolveFormPlaces(db, blank, ends, { required: true })).errors).toEqual({ "receiver_address.locality": ["Please enter a locality"] });
    expect((await resolveFormPlaces(db, blank, ends, { required: false })).problems).toEqual([]);
    // the sender's problem comes first
    const both = await resolveFormPlaces(db, { ...typed, "sender_address.locality": "XYZVILLE", "sender_address.postcode": "", "receiver_address.locality": "RICHMOND" }, ends, { required: true });
    expect(both.problems).toEqual(['No locality matches "XYZVILLE" in Australia', "Choose the receiver's locality"]);
  });
});
