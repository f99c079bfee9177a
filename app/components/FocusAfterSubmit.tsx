import { useFetchers, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

const INVALID = '[aria-invalid="true"]';
/** how long after a submit a field marked invalid still takes focus (a slow save, a client-side check) */
const WATCH_MS = 15_000;

/** Focus `el`, first making a non-control (a message, a heading) focusable by script only. */
function focusOn(el: HTMLElement) {
  if (el.tabIndex < 0 && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
  el.focus();
}

function newlyMarked(r: MutationRecord) {
  if (r.type === "attributes") return r.target instanceof Element && r.target.getAttribute("aria-invalid") === "true";
  return [...r.addedNodes].some((n) => n instanceof Element && (n.matches(INVALID) || n.querySelector(INVALID) != null));
}

/** The open modal dialog, else the page's main region: where focus may go. */
const region = () => document.querySelector<HTMLElement>('[role="dialog"][aria-modal="true"], dialog[open]') ?? document.querySelector<HTMLElement>("main");

/** Focus is where the person left it after the submit: on the body, on the submitter or in the form. */
function focusIsIdle(form: HTMLFormElement | null) {
  const active = document.activeElement;
  if (!active || active === document.body) return true;
  return Boolean(form && (form.contains(active) || (active instanceof HTMLButtonElement && active.form === form)));
}

/**
 * One behaviour for every form of the app (issue 31 #9). After a submit that is refused, focus
 * moves to the first field marked invalid (of the form submitted, else of the page), however the
 * form was sent: a navigation, a fetcher, or the page's own script setting the errors. After a
 * submit that settles with focus fallen to the body (the button was disabled while busy, or
 * re-rendered away), focus goes back to that button if it is still there, else to the page's
 * message, else its heading, so a keyboard user is not sent back to the top.
 */
export function FocusAfterSubmit() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const last = useRef<{ form: HTMLFormElement | null; submitter: HTMLElement | null } | null>(null);
  const wasBusy = useRef(false);

  useEffect(() => {
    let observer: MutationObserver | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      observer?.disconnect();
      observer = null;
      clearTimeout(timer);
    };
    const onSubmit = (e: Event) => {
      const form = e.target instanceof HTMLFormElement ? e.target : null;
      last.current = { form, submitter: (e as SubmitEvent).submitter ?? null };
      stop();
      // the errors arrive later: watch for a field to be marked, once
      observer = new MutationObserver((records) => {
        // only a field newly marked counts: one still marked from the previous try is no answer yet
        if (!records.some(newlyMarked)) return;
        const scope = form?.isConnected ? form : document.querySelector("main");
        const invalid = scope?.querySelector<HTMLElement>(INVALID);
        if (!invalid) return;
        stop();
        if (document.activeElement !== invalid && focusIsIdle(form)) invalid.focus();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-invalid"] });
      timer = setTimeout(stop, WATCH_MS);
    };
    document.addEventListener("submit", onSubmit, true);
    return () => {
      document.removeEventListener("submit", onSubmit, true);
      stop();
    };
  }, []);

  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current || !last.current) return;
    wasBusy.current = false;
    const { form, submitter } = last.current;
    last.current = null;
    // effects run after React has committed the answer: the marks and messages are in the page
    const scope = form?.isConnected ? form : document.querySelector("main");
    const invalid = scope?.querySelector<HTMLElement>(INVALID) ?? document.querySelector<HTMLElement>(`main ${INVALID}`);
    if (invalid) {
      if (focusIsIdle(form)) invalid.focus();
      return;
    }
    if (document.activeElement && document.activeElement !== document.body) return;
    // the button pressed, disabled while busy, is still there (Publish now reads Unpublish): back to it
    if (submitter?.isConnected && !submitter.matches(":disabled")) {
      submitter.focus();
      return;
    }
    const within = region();
    const message = within?.querySelector<HTMLElement>('[role="status"]:not(:empty), [role="alert"]:not(:empty)');
    const heading = within?.querySelector<HTMLElement>("h1, h2");
    const target = message ?? heading;
    if (target) focusOn(target);
  }, [busy]);

  return null;
}
