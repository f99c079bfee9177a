/**
 * What the webhooks take from the outside world, replaceable by tests (the app's own copy, which
 * services.server.ts re-exports): the clock the retry window runs by, the name lookup whose every
 * address is checked before a delivery connects, and how long a receiver may take.
 */
import { lookup } from "node:dns/promises";

export interface ResolvedAddress {
  address: string;
  family: number;
}

export const webhookSeams = {
  now: (): Date => new Date(),
  resolve: (host: string): Promise<ResolvedAddress[]> => lookup(host, { all: true, verbatim: true }),
  /** a receiver's whole answer must come within this */
  timeoutMs: 10_000,
  /** how often an idle dispatcher looks for due deliveries */
  pollMs: 250,
};

/** Back to the defaults (tests, after replacing some). */
export const defaultSeams = { ...webhookSeams };
export const resetWebhookSeams = () => Object.assign(webhookSeams, defaultSeams);
