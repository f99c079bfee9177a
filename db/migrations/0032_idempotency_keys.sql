-- Idempotency keys (issue 34 item 3, docs/decisions/038): the first answer to an /api POST that
-- carried an Idempotency-Key, kept 24 hours so a retry gets it again instead of running twice.
-- Keyed by the caller (user and the customer they work in) and the key: the primary key is what
-- lets only one of two concurrent requests with the same key claim it.
CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text DEFAULT 'in_flight' NOT NULL,
	"status" integer,
	"headers" jsonb,
	"body" bytea,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_customer_id_key_pk" PRIMARY KEY("user_id","customer_id","key"),
	CONSTRAINT "idempotency_keys_state_check" CHECK ("idempotency_keys"."state" in ('in_flight', 'done'))
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");
