/**
 * Every class the app names in a literal `className="…"` is one the stylesheet defines (issue 31
 * #7: `link` was used on the users list, custom e-mails, declarations and branding, and defined
 * nowhere, so those links looked like text). The stylesheet is built as the Remix compiler builds
 * it: app/tailwind.css through Tailwind with the project's config.
 */
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import postcss from "postcss";
import tailwindcss from "tailwindcss";
import { expect, it } from "vitest";
import config from "../../tailwind.config";

const root = path.resolve(import.meta.dirname, "../..");

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (/\.tsx$/.test(e.name) && !/\.test\./.test(e.name)) out.push(p);
  }
  return out;
}

/** A class as a CSS selector spells it (Tailwind escapes `:`, `/`, `.`, `[`, `]` and the like). */
const selector = (cls: string) => `.${cls.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`)}`;

/** Classes that are markers for scripts or Tailwind's own group/peer variants, never styled themselves. */
const MARKERS = new Set(["group", "peer"]);

it("defines every class the app's markup names", async () => {
  const css = (await postcss([tailwindcss({ ...config, content: [path.join(root, "app/**/*.{ts,tsx}")] })]).process(await readFile(path.join(root, "app/tailwind.css"), "utf8"), { from: path.join(root, "app/tailwind.css") })).css;
  const used = new Map<string, string>();
  for (const file of await sources(path.join(root, "app"))) {
    const text = await readFile(file, "utf8");
    for (const m of text.matchAll(/className="([^"]*)"/g)) for (const cls of m[1]!.split(/\s+/).filter(Boolean)) if (!used.has(cls)) used.set(cls, path.relative(root, file));
  }
  expect(used.has("link"), "the links of issue 31 #7 use the class").toBe(true);
  const undefinedClasses = [...used]
    .filter(([cls]) => !MARKERS.has(cls) && !css.includes(selector(cls)))
    .map(([cls, file]) => `${cls} (${file})`);
  expect(undefinedClasses).toEqual([]);
  // Tailwind scans every source of the app: slow on a busy machine
}, 240_000);
