import { describe, expect, it } from "vitest";
import { isValidKey } from "./key";
import { requestHash, type HashedRequest } from "./request-hash";

const bytes = (text: string) => new TextEncoder().encode(text);
const json = (over: Partial<HashedRequest> = {}): HashedRequest => ({ method: "POST", target: "/api/consignments", contentType: "application/json", body: bytes('{"reference":"PO-1"}'), ...over });
const multipart = (boundary: string, file = "site_code\nMEL\n") => ({
  method: "POST",
  target: "/api/bulk_upload/import",
  contentType: `multipart/form-data; boundary=${boundary}`,
  body: bytes(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--${boundary}--\r\n`),
});

describe("the request hash", () => {
  it("is the same for the same method, path and query, media type and body", () => {
    expect(requestHash(json())).toBe(requestHash(json({ contentType: "application/json; charset=utf-8" })));
  });

  it("differs by body byte, path, query, method or media type", () => {
    const first = requestHash(json());
    for (const other of [
      json({ body: bytes('{"reference":"PO-2"}') }),
      json({ body: bytes('{"reference": "PO-1"}') }),
      json({ target: "/api/returns" }),
      json({ target: "/api/consignments?x=1" }),
      json({ method: "PUT" }),
      json({ contentType: "application/x-www-form-urlencoded" }),
    ]) {
      expect(requestHash(other)).not.toBe(first);
    }
  });

  it("takes a multipart upload's bytes with its boundary set aside: a client's fresh boundary on a retry is the same request, another file is not", () => {
    const first = requestHash(multipart("----formdata-undici-0123"));
    expect(requestHash(multipart("------------------------abc987"))).toBe(first);
    const quoted = multipart("quoted-boundary");
    expect(requestHash({ ...quoted, contentType: 'multipart/form-data; boundary="quoted-boundary"' })).toBe(first);
    expect(requestHash(multipart("----formdata-undici-0123", "site_code\nSYD\n"))).not.toBe(first);
  });
});

describe("a key", () => {
  it("is 1 to 255 printable ASCII characters", () => {
    expect(isValidKey("a")).toBe(true);
    expect(isValidKey("order 42/retry~ok")).toBe(true);
    expect(isValidKey("x".repeat(255))).toBe(true);
    expect(isValidKey("")).toBe(false);
    expect(isValidKey("x".repeat(256))).toBe(false);
    expect(isValidKey("tab\there")).toBe(false);
    expect(isValidKey("café")).toBe(false);
    expect(isValidKey("nul\u0000")).toBe(false);
  });
});
