import type { KeyboardEvent } from "react";

/** Tab and Shift+Tab stay inside the dialog: from its last control to its first and back. */
export function trapTab(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== "Tab") return;
  const controls = [
    ...e.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, summary, [tabindex]:not([tabindex='-1'])"),
  ].filter((el) => el.offsetParent !== null || el === document.activeElement);
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
