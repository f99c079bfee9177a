import { Form, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { move } from "~/utils/reorder";

/**
 * A list the person reorders by dragging a row, by Move up / Move down, or by Alt+Arrow keys on a
 * focused row (item types, shipping rules): each change posts intent=order with the ids in their
 * new order (no navigation), is announced, and the moved row's button keeps the focus. Without
 * JavaScript the Move buttons post intent=move with the row's id and direction.
 */
export function useReorder<T extends { id: number }>(items: T[], labelOf: (t: T) => string) {
  const submit = useSubmit();
  const [order, setOrder] = useState(items);
  const [dragging, setDragging] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const focusAfter = useRef<string | null>(null);
  useEffect(() => setOrder(items), [items]);
  // a moved row's button keeps the focus after the list comes back in its new order
  useEffect(() => {
    const id = focusAfter.current;
    if (!id) return;
    const wanted = document.getElementById(id) as HTMLButtonElement | null;
    // at the top or bottom that button is disabled: the row's other one takes the focus
    const other = document.getElementById(id.startsWith("up-") ? id.replace("up-", "down-") : id.replace("down-", "up-"));
    (wanted && !wanted.disabled ? wanted : (other ?? wanted))?.focus();
  }, [order]);

  const saveOrder = (next: T[], moved: T) => {
    setOrder(next);
    setAnnouncement(`${labelOf(moved)} moved to position ${next.indexOf(moved) + 1} of ${next.length}.`);
    const form = new FormData();
    form.set("intent", "order");
    for (const t of next) form.append("ids", String(t.id));
    submit(form, { method: "post", navigate: false });
  };
  const step = (index: number, by: -1 | 1, focusId: string) => {
    const to = index + by;
    if (to < 0 || to >= order.length) return;
    focusAfter.current = focusId;
    saveOrder(move(order, index, to), order[index]!);
  };
  const onRowKey = (index: number) => (event: KeyboardEvent) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    const target = event.target as HTMLElement;
    step(index, event.key === "ArrowUp" ? -1 : 1, target.id || `${event.key === "ArrowUp" ? "up" : "down"}-${order[index]!.id}`);
  };
  /** a row's drag and key handlers (none when the person may not reorder) */
  const rowProps = (index: number, enabled: boolean) => ({
    draggable: enabled,
    onDragStart: () => setDragging(index),
    onDragOver: (e: React.DragEvent) => dragging !== null && e.preventDefault(),
    onDrop: (e: React.DragEvent) => {
      e.preventDefault();
      if (dragging !== null && dragging !== index) saveOrder(move(order, dragging, index), order[dragging]!);
      setDragging(null);
    },
    onKeyDown: enabled ? onRowKey(index) : undefined,
    "data-dragging": dragging === index ? "true" : undefined,
  });
  return { order, announcement, rowProps, step };
}

/** The live region that reads out each move. */
export function OrderAnnouncement({ text }: { text: string }) {
  return (
    <p className="sr-only" aria-live="polite" data-testid="order-announcement">
      {text}
    </p>
  );
}

/** A row's Move up / Move down: in place with JavaScript, a post without it. */
export function MoveButtons({ id, index, count, label, step }: { id: number; index: number; count: number; label: string; step: (index: number, by: -1 | 1, focusId: string) => void }) {
  return (
    <Form
      method="post"
      className="flex gap-1"
      onSubmit={(e) => {
        // with JavaScript the order is saved in place (the button that was pressed keeps the focus)
        const button = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        if (!button) return;
        e.preventDefault();
        step(index, button.value === "up" ? -1 : 1, button.id);
      }}
    >
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={id} />
      <button type="submit" id={`up-${id}`} name="direction" value="up" className="btn px-2 py-0" disabled={index === 0} aria-label={`Move ${label} up`}>
        Move up
      </button>
      <button type="submit" id={`down-${id}`} name="direction" value="down" className="btn px-2 py-0" disabled={index === count - 1} aria-label={`Move ${label} down`}>
        Move down
      </button>
    </Form>
  );
}
