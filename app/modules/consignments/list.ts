/**
 * The consignment list's vocabulary (spec 1 sections 2, 4 and 9): filters, date filters, sort
 * columns, group keys, keyset cursors and the list URL. Pure, so the screen, the list module and
 * GET /api/consignments share one copy (the browser bundle cannot import *.server files).
 */

import { z } from "zod";
import { MAX_ID, recordId } from "../../utils/ids";
import { consignmentStateLabel } from "./state-labels";

/** State filters of the list (spec 1 section 4 "List filters"); metadata is every state. */
export const LIST_FILTERS = ["metadata", "incomplete", "labels_to_print", "complete", "despatched", "failed"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

/** Date list filters (spec 1 section 9); the same list as the consignment_date_filter user option. */
export const DATE_FILTERS = ["today", "last_3_days", "last_7_days", "last_14_days", "last_30_days", "this_week", "next_7_days"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

export const FILTER_LABELS: Record<ListFilter, string> = {
  metadata: "All",
  incomplete: "Not Ready",
  labels_to_print: "Labels to print",
  complete: "Ready to despatch",
  despatched: "Despatched",
  failed: "Failed",
};

export const DATE_FILTER_LABELS: Record<DateFilter, string> = {
  today: "Today",
  last_3_days: "Last 3 days",
  last_7_days: "Last 7 days",
  last_14_days: "Last 14 days",
  last_30_days: "Last 30 days",
  this_week: "This week",
  next_7_days: "Next 7 days",
};

export const isListFilter = (v: unknown): v is ListFilter => typeof v === "string" && (LIST_FILTERS as readonly string[]).includes(v);
export const isDateFilter = (v: unknown): v is DateFilter => typeof v === "string" && (DATE_FILTERS as readonly string[]).includes(v);

/** Labels cannot be printed in incomplete; despatch is not possible in incomplete and labels_to_print. */
export const canPrintLabelsIn = (f: ListFilter) => f !== "incomplete";
export const canDespatchIn = (f: ListFilter) => f !== "incomplete" && f !== "labels_to_print";

/**
 * A row's state in the All view, which mixes every state: the counters' names for the states
 * still to despatch, otherwise the state itself in words ("despatch_failure" is "Despatch failure").
 */
export function stateLabel(state: string, labelsPrinted: boolean): string {
  if (state === "open") return FILTER_LABELS.incomplete;
  if (state === "despatchable") return labelsPrinted ? FILTER_LABELS.complete : FILTER_LABELS.labels_to_print;
  return consignmentStateLabel(state);
}

/** Rows per page of a group ("Show more" loads the next page after the last row). */
export const PAGE_SIZE = 100;
/** A counter of this many or more is drawn wider (spec 1 section 2). */
export const WIDE_COUNT = 1000;
export const PARTY_NAME_LENGTH = 19;
export const REFERENCE_LENGTH = 12;
/** Auto labels: the dialog asks every 2.5 s and skips a consignment it printed in the last 45 s. */
export const AUTO_PRINT_EVERY_MS = 2500;
export const AUTO_PRINT_SKIP_MS = 45_000;
export const MANIFEST_POLL_MS = 1000;
/** After a despatch request its buttons rest this long (spec 1 section 9). */
export const DESPATCH_PAUSE_MS = 5000;
export const EMPTY_LIST = "There are no consignments to display.";
export const NO_MANIFESTS = "No manifests were created.";
export const manifestFailed = (id: number) => `Despatch failed Manifest: ${id}`;

/** Sortable columns: the header's name in the URL and the type its keyset value has. */
export const SORTS = {
  consignment_number: { label: "Consignment", type: "text" },
  party_name: { label: "Receiver", type: "text" },
  despatch_date: { label: "Despatch date", type: "date" },
  reference: { label: "Reference", type: "text" },
  item_count: { label: "Items", type: "int" },
  weight: { label: "Weight", type: "numeric" },
  volume: { label: "Volume", type: "numeric" },
  hazardous: { label: "Hazardous", type: "bool" },
} as const;
export type SortKey = keyof typeof SORTS;
export type SortDir = "asc" | "desc";
export const isSortKey = (v: unknown): v is SortKey => typeof v === "string" && Object.hasOwn(SORTS, v);
export const DEFAULT_SORT: SortKey = "despatch_date";
export const DEFAULT_DIR: SortDir = "desc";

/** First `n` characters (the list shows the whole text as a tooltip). */
export const truncate = (s: string | null | undefined, n: number) => (s ? (s.length > n ? s.slice(0, n) : s) : "");

// ---------------------------------------------------------------------------------------------
// Dates (UTC, like the despatch date picker)

const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** The despatch dates a date filter covers, both ends included. */
export function dateRange(filter: DateFilter, today: string): { start: string; end: string } {
  switch (filter) {
    case "today":
      return { start: today, end: today };
    case "last_3_days":
      return { start: addDays(today, -2), end: today };
    case "last_7_days":
      return { start: addDays(today, -6), end: today };
    case "last_14_days":
      return { start: addDays(today, -13), end: today };
    case "last_30_days":
      return { start: addDays(today, -29), end: today };
    case "this_week": {
      // Monday to Sunday
      const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
      const monday = addDays(today, -weekday);
      return { start: monday, end: addDays(monday, 6) };
    }
    case "next_7_days":
      return { start: today, end: addDays(today, 6) };
  }
}

// ---------------------------------------------------------------------------------------------
// Groups and cursors

/** A group: one carrier service (s<id>), consignments without a service (none), or returns. */
export type GroupKey = `s${number}` | "none" | "returns";
export const RETURNS_GROUP = "returns" as const;
export const NO_SERVICE_GROUP = "none" as const;
export const isGroupKey = (v: string): v is GroupKey => v === RETURNS_GROUP || v === NO_SERVICE_GROUP || /^s[1-9]\d*$/.test(v);

export type CursorValue = string | number | boolean | null;

/** A keyset cursor: the last row's sort value and id, as URL-safe text. */
export function encodeCursor(value: CursorValue, id: number): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify([value, id]))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A calendar date that exists (no 2024-99-99 or 2025-02-30), years 1 to 9999. */
const realDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((v) => {
    const [y, m, d] = v.split("-").map(Number) as [number, number, number];
    const date = new Date(0);
    date.setUTCFullYear(y, m - 1, d);
    return y >= 1 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  });

/**
 * What a cursor's sort value may be, per the sort column's type: each is cast in SQL, so anything
 * the column cannot hold (a NUL, an integer beyond int4, numeric(14,x) overflow) is refused here.
 */
const CURSOR_VALUES = {
  text: z.string().max(1000).refine((v) => !v.includes("\u0000")),
  date: realDate,
  int: z.number().int().min(-MAX_ID - 1).max(MAX_ID),
  numeric: z.string().regex(/^-?\d{1,11}(\.\d{1,4})?$/),
  bool: z.boolean(),
} as const;

/** The cursor's value and id, or null when it is not one of ours or does not fit the sort. */
export function decodeCursor(cursor: string, sort: SortKey): { value: CursorValue; id: number } | null {
  let parsed: unknown;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
  } catch {
    return null;
  }
  const result = z.tuple([CURSOR_VALUES[SORTS[sort].type].nullable(), recordId("id")]).safeParse(parsed);
  return result.success ? { value: result.data[0], id: result.data[1] } : null;
}

// ---------------------------------------------------------------------------------------------
// The list URL: everything the screen shows is in it

export interface ListView {
  filter: ListFilter;
  dateFilter: DateFilter;
  /** site code, or null for all sites */
  site: string | null;
  sort: SortKey;
  dir: SortDir;
  open: GroupKey[];
  /** a group's keyset cursor ("Show more") */
  after: Partial<Record<GroupKey, string>>;
}

/** The URL of a list view: filter and date filter in the path, the rest in the query. */
export function listUrl(v: ListView, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  q.set("site", v.site ?? "all");
  if (v.sort !== DEFAULT_SORT || v.dir !== DEFAULT_DIR) {
    q.set("sort", v.sort);
    q.set("dir", v.dir);
  }
  if (v.open.length) q.set("open", v.open.join(","));
  for (const [key, cursor] of Object.entries(v.after)) if (cursor) q.set(`after_${key}`, cursor);
  for (const [k, val] of Object.entries(extra)) q.set(k, val);
  return `/consignments/${v.filter}/${v.dateFilter}?${q.toString().replace(/%2C/g, ",")}`;
}

/** The group keys of `?open=` that are ours, once each. */
export function parseOpen(raw: string | null): GroupKey[] {
  if (!raw) return [];
  return [...new Set(raw.split(",").map((s) => s.trim()))].filter(isGroupKey).slice(0, 50);
}

/** Opens or closes a group; a closed group forgets its cursor. */
export function toggleGroup(v: ListView, key: GroupKey): ListView {
  const isOpen = v.open.includes(key);
  const after = { ...v.after };
  if (isOpen) delete after[key];
  return { ...v, open: isOpen ? v.open.filter((k) => k !== key) : [...v.open, key], after };
}

/** Sorting by a header: the same column flips its direction, another starts ascending; paging restarts. */
export function sortBy(v: ListView, key: SortKey): ListView {
  const dir: SortDir = v.sort === key ? (v.dir === "asc" ? "desc" : "asc") : "asc";
  return { ...v, sort: key, dir, after: {} };
}

/**
 * Shift-click range selection: the rows between the anchor and the clicked row (both included)
 * take the clicked row's new state. Returns the next selection.
 */
export function selectRange<T>(order: readonly T[], selected: ReadonlySet<T>, anchor: T | null, target: T, checked: boolean): Set<T> {
  const next = new Set(selected);
  const from = anchor == null ? -1 : order.indexOf(anchor);
  const to = order.indexOf(target);
  if (to < 0) return next;
  const [a, b] = from < 0 ? [to, to] : from < to ? [from, to] : [to, from];
  for (const id of order.slice(a, b + 1)) {
    if (checked) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Auto labels: the consignments of this poll to print, skipping those printed in the last 45 s. */
export function dueForPrinting(ids: readonly number[], printedAt: ReadonlyMap<number, number>, now: number, skipMs = AUTO_PRINT_SKIP_MS): number[] {
  return [...new Set(ids)].filter((id) => {
    const at = printedAt.get(id);
    return at == null || now - at >= skipMs;
  });
}
