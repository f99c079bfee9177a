import { describe, expect, it } from "vitest";
import { AppError } from "../../utils/errors";
import { checkCustomEmail } from "./custom-emails.server";
import { MESSAGES } from "./custom-emails";
import { SAMPLE_VALUES } from "../templates/tags";
import { composeReturnEmail, frameNotification, paragraphsHtml } from "./wording.server";

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.fieldErrors;
    throw e;
  }
  throw new Error("expected a refusal");
};

describe("checkCustomEmail", () => {
  it("sanitises each part and keeps only the fields of the kind", () => {
    const out = checkCustomEmail("notification", { subject: "ignored", header: '<p onclick="x()">Hi<script>alert(1)</script></p>', body: "<p>ignored</p>", footer: "" });
    expect(out).toEqual({ subject: null, header: "<p>Hi</p>", body: null, footer: null });
  });

  it("refuses unknown tags and statements per field, and an all-blank wording", () => {
    expect(errorsOf(() => checkCustomEmail("return", { subject: "For {{ password }}", body: "<p>{% if x %}y{% endif %}</p>" }))).toMatchObject({
      subject: [expect.stringContaining("Unknown tag {{ password }}")],
      body: [expect.stringContaining("is not allowed")],
    });
    expect(errorsOf(() => checkCustomEmail("return", { header: "<p><br></p>", body: "  " }))).toEqual({ base: [MESSAGES.empty] });
  });
});

describe("the e-mails with a custom wording", () => {
  const defaults = { subject: "Collection labels for consignment ABC000123", paragraphs: ["Hello Sam,", "Default text."], notes: "Gate code 1234" };

  it("the return e-mail takes subject, header, body and footer, tags filled in and escaped, the notes after the body", async () => {
    const values = { ...SAMPLE_VALUES, receiver_name: "<b>Bob</b>" };
    const mail = await composeReturnEmail({ subject: "Pickup {{ consignment_number }}", header: "<p>ACME header</p>", body: "<p>Dear {{ receiver_name }}</p>", footer: "<p>ACME footer</p>" }, values, defaults);
    expect(mail.subject).toBe("Pickup ABC000123");
    expect(mail.html).toContain("&lt;b&gt;Bob&lt;/b&gt;");
    expect(mail.text.split("\n\n")).toEqual(["ACME header", "Dear <b>Bob</b>", "Gate code 1234", "ACME footer"]);
    expect(mail.text).not.toContain("Default text.");
  });

  it("without a custom body or subject the defaults stay, framed by the header and footer", async () => {
    const mail = await composeReturnEmail({ subject: null, header: "<p>Top</p>", body: null, footer: null }, SAMPLE_VALUES, defaults);
    expect(mail.subject).toBe(defaults.subject);
    expect(mail.text.split("\n\n")).toEqual(["Top", "Hello Sam,", "Default text."]);
  });

  it("a notification is framed by the header and footer, unchanged without them", async () => {
    const own = paragraphsHtml(["Your parcel is on its way"]);
    expect(await frameNotification(null, SAMPLE_VALUES, own)).toBe(own);
    const framed = await frameNotification({ subject: null, header: "<p>From ACME</p>", body: null, footer: "<p>Call {{ sender_site_phone }}</p>" }, SAMPLE_VALUES, own);
    expect(framed.text).toBe(`From ACME\n\nYour parcel is on its way\n\nCall ${SAMPLE_VALUES.sender_site_phone}`);
    expect(framed.html.indexOf("From ACME")).toBeLessThan(framed.html.indexOf("Your parcel"));
  });
});
