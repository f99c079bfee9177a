-- A bulk upload's file waits for its job in the file store (issue 30, docs/decisions/030), linked to its row; removed when the job is done (or when it expires), the link then null.
ALTER TABLE "bulk_uploads" ADD COLUMN "file_id" uuid;--> statement-breakpoint
ALTER TABLE "bulk_uploads" ADD CONSTRAINT "bulk_uploads_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- every removed file (the nightly cleanup removes many) looks for uploads pointing at it: only the few that wait are indexed
CREATE INDEX "bulk_uploads_file_idx" ON "bulk_uploads" USING btree ("file_id") WHERE file_id is not null;
