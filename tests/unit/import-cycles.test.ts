/**
 * The import graph has no circle (issue 30 item 7): a module that imports, even as a type, a file
 * that imports it back ties both into one unit that cannot be understood, tested or split alone.
 * The project's eslint has no import plugin, so this walks the TypeScript imports by hand.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../db/paths";

/** The code that ships or runs the product (tests and benches import it, never the other way). */
const ROOTS = ["app", "db", "queues", "server", "scripts", "server.ts"];
const EXTENSIONS = [".ts", ".tsx", ".js", ".jsx"];

function sourceFiles(entry: string): string[] {
  const full = path.join(PROJECT_ROOT, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return EXTENSIONS.includes(path.extname(full)) && !/\.d\.ts$/.test(full) ? [full] : [];
  return readdirSync(full).flatMap((name) => (name === "node_modules" ? [] : sourceFiles(path.join(entry, name))));
}

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(PROJECT_ROOT, "app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null; // a package
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, "index" + e))];
  // ESM spelling of a TS file ("./x.js" for x.ts)
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, ".ts"), base.replace(/\.js$/, ".tsx"));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Static imports and re-exports, type-only ones included; a dynamic import() is loaded later and is not an edge. */
export function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    const specifier =
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? statement.moduleSpecifier.text
        : undefined;
    if (!specifier) continue;
    const target = resolve(file, specifier);
    if (target) out.push(target);
  }
  return out;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

describe("the import graph", () => {
  it("finds a circle when there is one (the checker itself)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c"], ["e"]]);
    expect(circles(new Map([["a", ["b"]], ["b", []]]))).toEqual([]);
  });

  it("counts type-only imports and re-exports as edges", () => {
    const file = path.join(PROJECT_ROOT, "app/services.server.ts");
    const edges = importsOf(file).map((f) => path.relative(PROJECT_ROOT, f));
    expect(edges).toContain("db/client.server.ts");
    expect(edges).toContain("app/modules/auth/sign-in-counts.server.ts"); // export { ... } from
  });

  it("has no circle in app, db, queues, server and scripts", () => {
    const files = ROOTS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const found = circles(graph).map((c) => c.map((f) => path.relative(PROJECT_ROOT, f)));
    expect(found).toEqual([]);
  });
});
