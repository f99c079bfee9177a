/**
 * Focus without JavaScript (issue 31 #9): a form refused without JavaScript comes back as a whole
 * page, where no script can move focus. The page's first field marked invalid (inside <main>, so
 * not the header's search) gets `autofocus`, and any other autofocus is dropped so it is the one
 * the browser focuses. Applied by entry.server.tsx to the HTML answering a document POST.
 */
const INVALID = /aria-invalid="true"/g;

export function autofocusFirstInvalid(html: string): string {
  const main = html.search(/<main[\s>]/);
  INVALID.lastIndex = main < 0 ? 0 : main;
  const hit = INVALID.exec(html);
  if (!hit) return html;
  const start = html.lastIndexOf("<", hit.index);
  const name = /^<([a-zA-Z][\w-]*)/.exec(html.slice(start));
  if (start < 0 || !name || !/^(input|select|textarea|button)$/i.test(name[1]!)) return html;
  const at = start + name[0].length;
  // React writes autoFocus as autofocus=""; only one control should claim it
  const before = html.slice(0, at).replace(/ autofocus=""/g, "");
  const after = html.slice(at).replace(/ autofocus=""/g, "");
  return `${before} autofocus=""${after}`;
}
