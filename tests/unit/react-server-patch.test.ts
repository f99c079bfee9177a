import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough } from "node:stream";
import { createElement as h, Suspense, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

/**
 * patches/react-dom+18.3.1.patch: React's Node stream renderer gathers the pieces of a flush as one
 * string and writes it when it reaches 8,192 characters or the flush ends, instead of encoding
 * each piece into a 2 KB byte view. Unpatched, a character of several bytes that fell across a
 * view's end sent the view's unwritten tail: NUL bytes in the page. Both builds are patched alike;
 * the tests run each.
 */
const require = createRequire(import.meta.url);
// the builds by their files (the package's exports name neither); each reads React as the server does
const cjs = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs");
type Server = typeof import("react-dom/server");
const builds: Array<[string, Server]> = [
  ["production", require(path.join(cjs, "react-dom-server.node.production.min.js")) as Server],
  ["development", require(path.join(cjs, "react-dom-server.node.development.js")) as Server],
];

/** The page as the destination received it: each write, and the whole decoded once. */
function render(server: Server, node: ReactNode, ready: "onShellReady" | "onAllReady"): Promise<{ writes: Buffer[]; html: string }> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    const writes: Buffer[] = [];
    out.on("data", (chunk: Buffer) => writes.push(chunk));
    out.on("end", () => resolve({ writes, html: Buffer.concat(writes).toString("utf8") }));
    const { pipe } = server.renderToPipeableStream(node, { nonce: "n0nce", [ready]: () => pipe(out), onShellError: reject });
  });
}

// text of one, two, three and four bytes a character, so pieces end at every offset of a 2 KB view
const TEXT = "row é 中 😀 <&>\"'";
function Table({ rows }: { rows: number }) {
  return h(
    "table",
    null,
    h(
      "tbody",
      null,
      Array.from({ length: rows }, (_, i) =>
        h("tr", { key: i }, h("td", { style: { marginTop: i } }, TEXT, i), h("td", null, h("input", { name: `n${i}`, defaultValue: `v${i} ü`, required: true }))),
      ),
    ),
  );
}

/** A child that suspends until `later` settles: what Remix's data scripts do after the shell. */
function suspending(later: Promise<void> & { done?: boolean }) {
  void later.then(() => (later.done = true));
  return function Late() {
    if (!later.done) throw later;
    return h("p", { id: "late" }, "late ✓");
  };
}

describe.each(builds)("React's stream renderer, %s build (patched)", (_, server) => {
  it("sends the page renderToString makes, every multi-byte character whole and no NUL", async () => {
    const page = h("div", null, h(Table, { rows: 600 }));
    const { html, writes } = await render(server, page, "onAllReady");
    expect(html).not.toContain("\u0000");
    expect(html).toBe(renderToString(page));
    expect(html.match(/😀/g)).toHaveLength(600);
    // gathered: a page of this size in a handful of writes, not one per 2 KB
    const bytes = Buffer.byteLength(html);
    expect(bytes).toBeGreaterThan(60_000);
    expect(writes.length).toBeLessThanOrEqual(Math.ceil(bytes / 8192) + 1);
    expect(writes.length).toBeGreaterThan(1);
  });

  it("sends a page rendered whole with its late parts in place, no script to move them", async () => {
    const Late = suspending(new Promise<void>((resolve) => setTimeout(resolve, 5)));
    const { html } = await render(server, h("main", null, h(Table, { rows: 3 }), h(Suspense, { fallback: h("i", null, "…") }, h(Late))), "onAllReady");
    expect(html).toContain('<p id="late">late ✓</p>');
    expect(html).not.toContain("$RC");
    expect(html).not.toContain("…");
  });

  it("streams late parts after the shell with React's script, its nonce and the text intact", async () => {
    const Late = suspending(new Promise<void>((resolve) => setTimeout(resolve, 5)));
    const { html, writes } = await render(server, h("main", null, h(Table, { rows: 3 }), h(Suspense, { fallback: h("i", null, "…") }, h(Late))), "onShellReady");
    expect(writes.length).toBeGreaterThan(1);
    expect(html).toContain("<i>…</i>");
    expect(html).toContain('<script nonce="n0nce">');
    expect(html).toContain("$RC");
    expect(html).toContain('<p id="late">late ✓</p>');
    expect(html).not.toContain("\u0000");
  });
});
