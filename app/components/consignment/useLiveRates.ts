import { useEffect, useRef, useState } from "react";
import type { Rate } from "~/modules/rating/engine";
import { apiFetch } from "~/utils/api-client";

/** Rates are asked for 500 ms after the last change (spec 1 section 9). */
export const RATE_DELAY_MS = 500;

/**
 * Live rating: with JavaScript, the rating payload (JSON, or null while it cannot be rated) is
 * priced by POST /api/carrier_selection 500 ms after it last changed; an older answer never
 * overwrites a newer one. `onRated` hears each answer (to keep or preselect a choice).
 */
export function useLiveRates(payload: string | null, enabled: boolean, initial: Rate[] | null, onRated?: (carriers: Rate[], selectedIndex: number | null) => void) {
  const [rates, setRates] = useState<Rate[] | null>(initial);
  const [rating, setRating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heard = useRef(onRated);
  heard.current = onRated;

  useEffect(() => {
    if (!enabled || !payload) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setRating(true);
      const res = await apiFetch<{ carriers: Rate[]; selected_index: number | null }>("/api/carrier_selection", { json: JSON.parse(payload), signal: controller.signal }).catch(() => null);
      if (controller.signal.aborted || !res) return;
      setRating(false);
      if (!res.ok) {
        setError(res.message);
        setRates([]);
        return;
      }
      setError(null);
      setRates(res.data.carriers);
      heard.current?.(res.data.carriers, res.data.selected_index);
    }, RATE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [payload, enabled]);

  return { rates, rating, error };
}
