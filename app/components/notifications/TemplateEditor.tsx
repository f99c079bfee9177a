import type Quill from "quill";
import quillStyles from "quill/dist/quill.snow.css";
import { useCallback, useEffect, useRef, useState } from "react";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "~/utils/upload-limits";
import { TagList } from "./TagList";

/** Quill's own stylesheet, from the package (the CSP allows no third-party hosts): for the `links` of the routes that show the editor. */
export const templateEditorLinks = () => [{ rel: "stylesheet", href: quillStyles }];

const IMAGE_TYPES = "image/png,image/jpeg,image/gif,image/webp";

/** Names for Quill's toolbar buttons, which come without any. */
const BUTTON_NAMES: Record<string, string> = {
  "header:1": "Heading 1",
  "header:2": "Heading 2",
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  link: "Link",
  blockquote: "Quote",
  "list:ordered": "Numbered list",
  "list:bullet": "Bulleted list",
  image: "Insert an image",
  clean: "Clear formatting",
};

/** Tab and Shift+Tab leave the editor (as in any text box) rather than indent or type a tab. */
const LEAVE = () => true;
const TAB_BINDINGS = {
  tab: { key: "Tab", handler: LEAVE },
  indent: { key: "Tab", format: ["blockquote", "indent", "list"], handler: LEAVE },
  outdent: { key: "Tab", shiftKey: true, format: ["blockquote", "indent", "list"], handler: LEAVE },
  "remove tab": { key: "Tab", shiftKey: true, collapsed: true, prefix: /\t$/, handler: LEAVE },
};

/** The editor's HTML as the form posts it: Quill writes every space as &nbsp;, which would split a tag such as {{ receiver_name }}. */
const htmlOf = (quill: Quill) => quill.getSemanticHTML().replaceAll("&nbsp;", " ");

/** One tab stop for a toolbar: the arrow keys, Home and End move between its buttons (WAI-ARIA toolbar). */
function roveButtons(toolbar: HTMLElement) {
  const buttons = () => [...toolbar.querySelectorAll<HTMLButtonElement>("button")];
  buttons().forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
  toolbar.addEventListener("focusin", (e) => {
    for (const b of buttons()) b.tabIndex = b === e.target ? 0 : -1;
  });
  toolbar.addEventListener("keydown", (e) => {
    const list = buttons();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    list[(to + list.length) % list.length]?.focus();
  });
}

/** Shows or hides the plain textarea as the render with `ready` does (`hidden` alone loses to .input's display). */
function showTextarea(textarea: HTMLTextAreaElement, shown: boolean) {
  textarea.hidden = !shown;
  textarea.classList.toggle("hidden", !shown);
}

interface Props {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  tags: readonly string[];
  hint?: string;
  error?: string;
  /** where images are uploaded (multipart, field file), answering { url }; without it, no images (a notice takes none) */
  uploadUrl?: string;
}

/**
 * A notification template. On the server, and until Quill has loaded (or if it never does), a
 * plain textarea of the HTML that the form posts; after hydration, Quill 2 over it, keeping the
 * textarea in step. The tags below insert at the cursor, by keyboard too.
 */
export function TemplateEditor({ id, name, label, defaultValue, tags, hint, error, uploadUrl }: Props) {
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  const quillRef = useRef<Quill | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const [ready, setReady] = useState(false);
  const [upload, setUpload] = useState<{ failed: boolean; text: string } | null>(null);
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;

  const uploadImage = useCallback(
    async (file: File) => {
      const quill = quillRef.current;
      if (!quill || !uploadUrl) return;
      if (file.size > MAX_IMAGE_BYTES) return setUpload({ failed: true, text: IMAGE_TOO_LARGE });
      setUpload({ failed: false, text: `Uploading ${file.name}…` });
      const body = new FormData();
      body.set("file", file);
      try {
        const res = await fetch(uploadUrl, { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" });
        const json = (await res.json().catch(() => null)) as { url?: string; errors?: Record<string, string[]> } | null;
        if (!res.ok || !json?.url) return setUpload({ failed: true, text: json?.errors?.file?.[0] ?? json?.errors?.base?.[0] ?? "The image could not be uploaded." });
        const range = quill.getSelection(true);
        quill.insertEmbed(range.index, "image", json.url, "user");
        quill.setSelection(range.index + 1, 0, "user");
        setUpload({ failed: false, text: `${file.name} was inserted.` });
      } catch {
        setUpload({ failed: true, text: "The image could not be uploaded: check the connection and try again." });
      }
    },
    [uploadUrl],
  );

  useEffect(() => {
    setHydrated(true);
    const host = hostRef.current;
    const textarea = textareaRef.current;
    if (!host || !textarea) return;
    let live = true;
    // client-only and on demand: the server render and pages without the editor never carry it
    import("quill").then(
      ({ default: QuillClass }) => {
        if (!live) return;
        const mount = document.createElement("div");
        host.appendChild(mount);
        const quill = new QuillClass(mount, {
          theme: "snow",
          formats: ["header", "bold", "italic", "underline", "link", "blockquote", "list", ...(uploadUrl ? ["image"] : [])],
          modules: {
            toolbar: {
              container: [[{ header: 1 }, { header: 2 }], ["bold", "italic", "underline", "link"], ["blockquote", { list: "ordered" }, { list: "bullet" }], uploadUrl ? ["image", "clean"] : ["clean"]],
              handlers: {
                image: () => {
                  const input = document.createElement("input");
                  input.type = "file";
                  input.accept = IMAGE_TYPES;
                  input.addEventListener("change", () => input.files?.[0] && void uploadImage(input.files[0]));
                  input.click();
                },
              },
            },
            keyboard: { bindings: TAB_BINDINGS },
          },
        });
        // the stored HTML through Quill's clipboard: parsed inert, only the formats above kept
        quill.setContents(quill.clipboard.convert({ html: textarea.value }), "silent");
        quill.history.clear();
        quill.on("text-change", () => {
          textarea.value = htmlOf(quill);
        });
        const toolbar = (quill.getModule("toolbar") as { container: HTMLElement }).container;
        toolbar.setAttribute("role", "toolbar");
        toolbar.setAttribute("aria-label", "Formatting");
        for (const button of toolbar.querySelectorAll<HTMLButtonElement>("button")) {
          const format = [...button.classList].find((c) => c.startsWith("ql-"))?.slice(3) ?? "";
          button.setAttribute("aria-label", BUTTON_NAMES[button.value ? `${format}:${button.value}` : format] ?? format);
        }
        roveButtons(toolbar);
        quill.root.setAttribute("role", "textbox");
        quill.root.setAttribute("aria-multiline", "true");
        quill.root.setAttribute("aria-labelledby", labelId);
        mount.querySelector(".ql-tooltip input")?.setAttribute("aria-label", "Link address");
        quillRef.current = quill;
        // the textarea hidden in the same turn Quill appears: until React's next render there
        // were two textboxes named for the label (an e2e check caught one in between)
        showTextarea(textarea, false);
        setReady(true);
      },
      () => {
        // Quill could not load: the textarea stays, and the form works as it does without JavaScript
      },
    );
    return () => {
      live = false;
      quillRef.current = null;
      host.replaceChildren();
      // without Quill the textarea is the editor again, until a new one is ready
      showTextarea(textarea, true);
      setReady(false);
    };
  }, [labelId, uploadImage, uploadUrl]);

  // what describes the editor follows the form's errors
  useEffect(() => {
    const root = quillRef.current?.root;
    if (!root) return;
    if (describedBy) root.setAttribute("aria-describedby", describedBy);
    else root.removeAttribute("aria-describedby");
    root.setAttribute("aria-invalid", error ? "true" : "false");
  }, [ready, describedBy, error]);

  const insertTag = useCallback((tag: string) => {
    const text = `{{ ${tag} }}`;
    const quill = quillRef.current;
    if (quill) {
      const range = quill.getSelection(true);
      if (range.length) quill.deleteText(range.index, range.length, "user");
      quill.insertText(range.index, text, "user");
      quill.setSelection(range.index + text.length, 0, "user");
      return;
    }
    const textarea = textareaRef.current;
    if (!textarea) return;
    textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, "end");
    textarea.focus();
  }, []);

  return (
    <div className="space-y-2" data-editor={ready ? "quill" : "text"}>
      <label id={labelId} htmlFor={ready ? undefined : id} className="label" onClick={() => quillRef.current?.focus()}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      <div
        ref={hostRef}
        className="bg-white [&_.ql-editor:focus]:outline [&_.ql-editor:focus]:outline-2 [&_.ql-editor:focus]:outline-sky-600 [&_.ql-editor]:min-h-[12rem] [&_.ql-editor]:text-sm [&_.ql-toolbar_button:focus-visible]:outline [&_.ql-toolbar_button:focus-visible]:outline-2 [&_.ql-toolbar_button:focus-visible]:outline-sky-600"
      />
      <textarea
        ref={textareaRef}
        id={id}
        name={name}
        defaultValue={defaultValue}
        hidden={ready}
        rows={10}
        // `hidden` alone loses to .input's display: block
        className={`input font-mono ${ready ? "hidden" : ""}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      <p role={upload?.failed ? "alert" : "status"} className={upload?.failed ? "field-error" : "text-xs text-slate-600"}>
        {upload?.text ?? ""}
      </p>
      <TagList tags={tags} enhanced={hydrated} onInsert={insertTag} />
    </div>
  );
}
