-- The S3 file store (issue 30 item 2, docs/decisions/037). Each file's row says where its bytes are
-- ('db': file_chunks, 's3': an object in the configured bucket), so files written before a switch
-- of FILE_STORE stay readable.
ALTER TABLE "files" ADD CONSTRAINT "files_storage_known" CHECK ("storage" in ('db', 's3'));
--> statement-breakpoint
-- An S3 file's row deleted (deleteFile, the nightly cleanup, or any delete) leaves its object to be
-- removed: the trigger lists it here in the deleting transaction, so a rollback lists nothing and
-- keeps the object, and a commit cannot lose it. The store's sweep deletes the objects listed.
CREATE TABLE "file_objects_gone" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "list_file_object_gone"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "file_objects_gone" ("file_id") VALUES (OLD."id") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "files_s3_object_gone" AFTER DELETE ON "files" FOR EACH ROW WHEN (OLD."storage" = 's3') EXECUTE FUNCTION "list_file_object_gone"();
