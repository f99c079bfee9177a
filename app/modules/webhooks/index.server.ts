/** The webhooks module's face for the other modules: they emit; nothing else of it is theirs. */
export { emitEvent, emitEvents, type WebhookEvent } from "./emit.server";
