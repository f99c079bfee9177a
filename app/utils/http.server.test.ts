import { describe, expect, it } from "vitest";
import { api, MAX_JSON_DEPTH, readBody, readQuery } from "./http.server";

const json = (text: string) => new Request("http://x/api", { method: "POST", headers: { "content-type": "application/json" }, body: text });
const nested = (depth: number) => `{"options":${'{"a":'.repeat(depth - 1)}1${"}".repeat(depth - 1)}}`;
/** The status and body api() answers for what readBody or a handler throws. */
const answer = async (handler: () => Promise<unknown>) => {
  const res = await api(handler);
  return { status: res.status, body: (await res.json()) as { errors: Record<string, string[]> } };
};

describe("readBody refuses what no field may hold (issue 12 finding 8)", () => {
  it("JSON nested deeper than MAX_JSON_DEPTH is a 400; at the limit it reads", async () => {
    expect(await readBody(json(nested(MAX_JSON_DEPTH)))).toHaveProperty("options");
    expect(await answer(() => readBody(json(nested(MAX_JSON_DEPTH + 1))))).toEqual({ status: 400, body: { errors: { base: [`The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`] } } });
    // arrays count as levels too
    expect((await answer(() => readBody(json(`{"a":${"[".repeat(50)}${"]".repeat(50)}}`)))).status).toBe(400);
  });

  it("a NUL in any string or key is a 422 naming its path", async () => {
    expect(await answer(() => readBody(json('{"items":[{"name":"a\\u0000b"}]}')))).toEqual({ status: 422, body: { errors: { "items.0.name": ["items.0.name cannot contain a NUL character"] } } });
    expect((await answer(() => readBody(json('{"options":{"k\\u0000":1}}')))).body.errors).toEqual({ "options.k\\u0000": ["options.k\\u0000 cannot contain a NUL character"] });
    const form = new Request("http://x/api", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "reference=a%00b" });
    expect((await answer(() => readBody(form))).status).toBe(422);
  });

  it("a body that is not the JSON or form it claims is a 400", async () => {
    expect((await answer(() => readBody(json("{")))).status).toBe(400);
    const form = new Request("http://x/api", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=b" }, body: "--b\r\nnot a part" });
    expect(await answer(() => readBody(form))).toEqual({ status: 400, body: { errors: { base: ["The request body is not a valid form."] } } });
  });

  it("a NUL in a query parameter is a 422 naming it", async () => {
    expect(readQuery(new Request("http://x/api?a=1")).get("a")).toBe("1");
    expect(await answer(async () => readQuery(new Request("http://x/api?service_code=%00")))).toEqual({ status: 422, body: { errors: { service_code: ["service_code cannot contain a NUL character"] } } });
  });
});

describe("api(): the database's refusal of a caller's value is a 400, anything else a 500", () => {
  const dbError = (code: string) => Object.assign(new Error("Failed query"), { cause: Object.assign(new Error("refused"), { code }) });
  it.each(["22P05", "22021", "22003", "22007", "22008", "54001"])("SQLSTATE %s", async (code) => {
    expect((await answer(() => Promise.reject(dbError(code)))).status).toBe(400);
  });
  it("an unknown error stays a 500", async () => {
    const quiet = console.error;
    console.error = () => {};
    try {
      expect((await answer(() => Promise.reject(dbError("23505")))).status).toBe(500);
    } finally {
      console.error = quiet;
    }
  });
});
