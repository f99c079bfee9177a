import { describe, expect, it } from "vitest";
import { enquiryMail } from "./mail";
import { commentSchema, isOtherType, listSubject, ticketSchema, typeRuleErrors } from "./types";

describe("enquiry rules", () => {
  it("subjects are cut at 35 characters in lists, with an ellipsis only when cut", () => {
    expect(listSubject("a".repeat(35))).toBe("a".repeat(35));
    expect(listSubject(`${"b".repeat(35)}c`)).toBe(`${"b".repeat(35)}…`);
  });

  it("the type 'other' (case and spaces aside) needs a description", () => {
    expect(isOtherType(" OTHER ")).toBe(true);
    expect(isOtherType("Others")).toBe(false);
    expect(typeRuleErrors("Other", undefined)).toEqual({ description: ["When you pick enquiry 'other', you need a description"] });
    expect(typeRuleErrors("Other", "It broke")).toEqual({});
    expect(typeRuleErrors("Damaged goods", undefined)).toEqual({});
  });

  it("e-mail: blank is 'Please enter an email' (once), malformed 'Please enter a valid email'", () => {
    const errors = (email: unknown) => ticketSchema.safeParse({ full_name: "A", subject: "S", email }).error?.issues.filter((i) => i.path[0] === "email").map((i) => i.message);
    expect(errors("")).toEqual(["Please enter an email"]);
    expect(errors(undefined)).toEqual(["Please enter an email"]);
    expect(errors("me@")).toEqual(["Please enter a valid email"]);
    expect(errors("me@example.com")).toBeUndefined();
  });

  it("a comment is required, said as a sentence ('Please enter a comment')", () => {
    expect(commentSchema.safeParse({ comment: "  " }).error?.issues[0]?.message).toBe("Please enter a comment");
    expect(commentSchema.safeParse({}).error?.issues[0]?.message).toBe("Please enter a comment");
  });

  it("the mail's HTML escapes everything people wrote; its text keeps it as typed", () => {
    const mail = enquiryMail({
      kind: "new",
      ticket: { id: 7, subject: "<b>Late</b>", fullName: "Eve <script>", email: "eve@example.com", phone: null, supportRequest: "Other" },
      consignmentNumber: "NL1",
      author: "Eve",
      text: "<img src=x onerror=alert(1)>\nsecond line",
      link: "http://localhost/enquiries",
    });
    expect(mail.subject).toBe("Enquiry #7: <b>Late</b>");
    expect(mail.html).not.toMatch(/<(script|img|b>)/i);
    expect(mail.html).toContain("&lt;img src=x onerror=alert(1)&gt;<br>second line");
    expect(mail.text).toContain("<img src=x onerror=alert(1)>");
  });
});
