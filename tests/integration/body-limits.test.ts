import { desc, eq } from "drizzle-orm";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAudits } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { BODY_LIMIT_BYTES, BODY_TOO_LARGE, UPLOAD_FRAMING_BYTES } from "../../server/body-limit";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "../../app/utils/upload-limits";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let admin: Client;
let despatcher: Client;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  admin = new Client(server.url);
  despatcher = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
  expect((await despatcher.signIn("despatcher@example.com")).status).toBe(200);
});
afterAll(() => server.close());

const MB = 1024 * 1024;
/** Far beyond both limits: a body the server buffered whole would show in its memory. */
const TOTAL = 128 * MB;

interface Streamed {
  status: number;
  body: string;
  /** bytes the client had handed over when the answer arrived */
  sentAtAnswer: number;
  /** the largest growth of this process's live memory while the body streamed */
  memoryGrowth: number;
}

const liveMemory = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};

/**
 * Streams `TOTAL` bytes chunked (no Content-Length), as fast as the server takes them, and stops
 * at the answer. The server runs in this process, so its memory is this process's.
 */
async function stream(path: string, headers: Record<string, string>, head: string, fill: number): Promise<Streamed> {
  const req = http.request(server.url + path, { method: "POST", headers: { ...headers, "transfer-encoding": "chunked" } });
  let sent = 0;
  let sentAtAnswer = -1;
  const before = liveMemory();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, liveMemory())), 5);
  req.on("error", () => {}); // the server closes the connection after answering: the writes then fail
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      sentAtAnswer = sent;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
      res.on("error", reject);
    });
    req.on("close", () => setTimeout(() => reject(new Error(`no answer; ${sent} bytes sent`)), 2000));
  });
  const block = Buffer.alloc(256 * 1024, fill);
  req.write(head);
  sent += head.length;
  while (sent < TOTAL && sentAtAnswer < 0 && !req.destroyed) {
    if (!req.write(block)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          req.off("drain", done).off("response", done).off("close", done);
          resolve();
        };
        req.on("drain", done).on("response", done).on("close", done);
      });
    }
    sent += block.length;
  }
  if (sentAtAnswer < 0 && !req.destroyed) req.end();
  const result = await answer;
  req.destroy();
  clearInterval(sampler);
  peak = Math.max(peak, liveMemory());
  return { ...result, sentAtAnswer, memoryGrowth: peak - before };
}

const BOUNDARY = "----fd-test-boundary";
const multipartHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="zones.csv"\r\nContent-Type: text/csv\r\n\r\npostcode,zone\r\n`;
const multipart = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };

/** The answer came while the client still had most of the body to send, and the server never held it. */
function expectRefusedEarly(r: Streamed, limit: number) {
  expect(r.sentAtAnswer).toBeGreaterThanOrEqual(0);
  // what the limit lets in plus what the two sockets' buffers hold
  expect(r.sentAtAnswer).toBeLessThan(limit + 32 * MB);
  // loose (garbage not yet collected counts): what the limit lets in and its parsing, never the whole body
  expect(r.memoryGrowth).toBeLessThan(limit * 2 + 48 * MB);
}

describe("request bodies are limited while they stream", () => {
  it("refuses a chunked JSON sign-in body past the JSON limit with 413 JSON", async () => {
    const r = await stream("/users/sign_in", { "content-type": "application/json", accept: "application/json" }, '{"user":{"email":"', 0x61);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ errors: { base: [BODY_TOO_LARGE] } });
    expectRefusedEarly(r, BODY_LIMIT_BYTES);
  });

  it("refuses an oversized form post to a page with a 413 page saying why", async () => {
    const r = await stream("/login", { "content-type": "application/x-www-form-urlencoded" }, "email=", 0x61);
    expect(r.status).toBe(413);
    expect(r.body).toContain(BODY_TOO_LARGE);
    expectRefusedEarly(r, BODY_LIMIT_BYTES);
  });

  it("refuses a signed-out upload with 401 before reading it", async () => {
    const r = await stream("/api/zones/import?carrier_code=HANDCO", multipart, multipartHead, 0x31);
    expect(r.status).toBe(401);
    expectRefusedEarly(r, 0);
  });

  it("refuses a despatcher's upload with 403 before reading it", async () => {
    const r = await stream("/api/zones/import?carrier_code=HANDCO", { ...multipart, cookie: despatcher.cookie }, multipartHead, 0x31);
    expect(r.status).toBe(403);
    expectRefusedEarly(r, 0);
  });

  it("refuses a zone file on the zones screen from customer service (staff who may not save zones) before reading it", async () => {
    const service = new Client(server.url);
    expect((await service.signIn("customerservice@example.com")).status).toBe(200);
    const r = await stream("/zones", { ...multipart, cookie: service.cookie }, multipartHead, 0x31);
    expect(r.status).toBe(403);
    expectRefusedEarly(r, 0);
  });

  it("stops an allowed upload at 10 MB with 413 and the spec's message", async () => {
    const r = await stream("/api/zones/import?carrier_code=HANDCO", { ...multipart, cookie: admin.cookie }, multipartHead, 0x31);
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toEqual({ errors: { base: [FILE_TOO_LARGE], file: [FILE_TOO_LARGE] } });
    expectRefusedEarly(r, MAX_UPLOAD_BYTES + UPLOAD_FRAMING_BYTES);
    // the session still works: nothing of the refused upload lingers
    expect((await admin.json("/api/users/current")).status).toBe(200);
  });

  it("refuses a declared Content-Length over the limit before any byte is sent", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.url}/users/sign_in`, { method: "POST", headers: { "content-type": "application/json", "content-length": String(BODY_LIMIT_BYTES + 1) } });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
        req.destroy();
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });
});

/** The largest consignment the schema accepts: 200 items of 20 dangerous goods lines, every text at its maximum. */
function largestConsignment() {
  const text = (n: number) => "x".repeat(n);
  const dg = { un_number: "1234567890", proper_shipping_name: text(255), technical_name: text(255), hazard_class: "2.1xxx", packing_group: "IIIxxx", sub_hazard: "6.1xxx", weight_in_uom: "999.9", nos: true };
  const item = { quantity: 1, item_type_id: null, reference: text(255), length: 120, width: 120, height: 120, weight_in_uom: "25.5", consolidated: false, dangerous_goods_items: Array.from({ length: 20 }, () => dg) };
  const address = { name: text(255), address_line_1: text(255), address_line_2: text(255), address_line_3: text(255), address_line_4: text(255), locality: "MELBOURNE", region: "VIC", postcode: "3000", country: "AUSTRALIA", phone: "+61 (3) 9999-9999", email: `${text(240)}@example.com`, special_instructions: text(80) };
  return { reference: text(255), custom_reference: text(4000), special_instructions: text(80), receiver_address: address, sender_address: address, items: Array.from({ length: 200 }, () => item) };
}

describe("a body the server will not read", () => {
  it("is dropped for a while after the answer, then the connection is closed", async () => {
    // a cross-site post is refused before its body is read; a client that keeps sending is cut
    // off. A raw socket: Node's own client stops sending once it has the answer.
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let answer = "";
    socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
    socket.on("error", () => {}); // the reset that ends it
    let closed = false;
    const onClose = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    void onClose.then(() => (closed = true));
    socket.write(`POST /api/consignments HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nCookie: ${despatcher.cookie}\r\nOrigin: http://evil.example\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const block = Buffer.alloc(256 * 1024, 0x61);
    const chunk = Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")]);
    let sent = 0;
    while (sent < TOTAL && !closed) {
      if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), onClose]);
      sent += block.length;
    }
    if (!closed) socket.end("0\r\n\r\n");
    await onClose;
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(sent).toBeLessThan(TOTAL / 2);
  });
});

/**
 * Sends a whole body of `size` bytes with its Content-Length before reading anything, as a simple
 * client does, and reports the answer and when the connection closed (ms after the last byte went).
 */
async function sendWholeFirst(path: string, headers: string, size: number, waitMs = 10_000) {
  const { port, host } = new URL(server.url);
  const socket = net.connect(Number(port), "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  let answer = "";
  socket.on("data", (d: Buffer) => (answer += d.toString("latin1")));
  socket.on("error", () => {});
  let closedAt = 0;
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve(void (closedAt = Date.now()))));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\n${headers}Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${size}\r\n\r\n`);
  const block = Buffer.alloc(64 * 1024, 0x31);
  for (let sent = 0; sent < size && !closedAt; sent += block.length) {
    if (!socket.write(block.subarray(0, Math.min(block.length, size - sent)))) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
  }
  const sentAt = Date.now();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, waitMs))]);
  socket.destroy();
  return { answer, closedAfterMs: closedAt ? closedAt - sentAt : Infinity };
}

describe("a refused upload ends its connection (issue 35 finding 8)", () => {
  it.each([
    ["signed out, asking for gzip", "Accept-Encoding: gzip\r\n", 401],
    ["a despatcher, who may not import zones", "", 403],
  ])("%s: the answer, Connection: close, and the connection closed once the body is in", async (_who, extra, status) => {
    const headers = status === 403 ? `${extra}Cookie: ${despatcher.cookie}\r\n` : extra;
    const r = await sendWholeFirst("/api/zones/import?carrier_code=HANDCO", headers, 9 * MB);
    expect(r.answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(r.answer).toMatch(/\r\nConnection: close\r\n/i);
    // kept alive, it sat for 65 s
    expect(r.closedAfterMs).toBeLessThan(3_000);
  });

  it("an upload the app reads whole keeps its connection alive", async () => {
    const r = await sendWholeFirst("/api/zones/import?carrier_code=HANDCO", `Cookie: ${admin.cookie}\r\n`, 1024, 1_000);
    expect(r.answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(r.answer).not.toMatch(/\r\nConnection: close\r\n/i);
    expect(r.closedAfterMs).toBe(Infinity);
  });
});

describe("the JSON limit fits every valid body", () => {
  it("takes the largest consignment the schema accepts", async () => {
    const body = JSON.stringify(largestConsignment());
    expect(body.length).toBeLessThan(BODY_LIMIT_BYTES);
    const res = await despatcher.request("/api/consignments", { json: JSON.parse(body) as unknown });
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
  });
});

describe("TRUST_PROXY", () => {
  async function auditedIp(url: string, forwardedFor: string) {
    await fetch(`${url}/users/sign_in`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ user: { email: `nobody-${forwardedFor}@example.com`, password: "Wrong-pass-00" } }),
    });
    const [row] = await server.db.select().from(signInAudits).where(eq(signInAudits.email, `nobody-${forwardedFor}@example.com`)).orderBy(desc(signInAudits.id));
    return row?.ip;
  }

  it("unset: X-Forwarded-For does not change the address the sign-in audit records", async () => {
    expect(await auditedIp(server.url, "203.0.113.7")).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it("refuses to start with a value Express cannot read", async () => {
    await expect(serveApp(server.services, { trustProxy: "10.0.0.0/99" })).rejects.toThrow(/TRUST_PROXY/);
  });

  it("set to loopback: the address a loopback proxy forwards is recorded", async () => {
    const proxied = await serveApp(server.services, { trustProxy: "loopback" });
    try {
      expect(await auditedIp(proxied.url, "203.0.113.8")).toBe("203.0.113.8");
    } finally {
      await proxied.close();
    }
  });
});
