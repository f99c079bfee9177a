/**
 * User CSV import (issue 16 item 4; spec 2 section 5 "User CSV import accepts csv or gz"): POST
 * /api/customers/{id}/users/create_bulk and the users screen's Import. The file is refused whole
 * before parsing when it is too large, of another type, or inflates past the stated size; each row
 * is then created or skipped on its own (all or nothing per row), every skipped line reported.
 */
import { gunzipSync } from "node:zlib";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { hashPassword } from "../auth/password.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError } from "../../utils/errors";
import { parseCsv } from "../../utils/csv.server";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES, UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
import { generatePassword } from "./generate-password";
import { customerSites, checkUser, insertUser } from "./admin.server";
import { FLAGS } from "./admin";

/** A gzip file may inflate to this much CSV and no more (a small "gz bomb" is cut off here). */
export const MAX_DECOMPRESSED_BYTES = 20 * 1024 * 1024;
/** Rows of one file: each is hashed (argon2) while the caller waits, so a file stays a few thousand rows. */
export const MAX_IMPORT_ROWS = 2000;

export const IMPORT_MESSAGES = {
  tooLarge: FILE_TOO_LARGE,
  type: "Only csv or gz files can be imported.",
  choose: "Choose a csv or gz file to import.",
  bomb: `The gz file inflates to more than ${MAX_DECOMPRESSED_BYTES / 1024 / 1024} MB of CSV.`,
  notGzip: "The gz file is not a valid gzip file.",
  tooManyRows: `A file may hold at most ${MAX_IMPORT_ROWS} users.`,
  noEmailColumn: "The header must name an email column.",
} as const;

/** The template's columns (the import template download and the screen's help text). */
export const USER_CSV_COLUMNS = ["email", "full_name", "phone_number", "role", "site_codes", "default_site_code", ...FLAGS, "password"] as const;

const refuse = (message: string) => new AppError("invalid", message, { file: [message] });
const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * The CSV text of an upload: `.csv` as it is, `.gz` (or `.csv.gz`) inflated with a cap on its
 * decompressed size. Other names are refused by type, whatever their content.
 */
export function decodeUpload(name: string, bytes: Uint8Array): string {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) throw refuse(IMPORT_MESSAGES.tooLarge);
  if (/\.gz$/i.test(name)) {
    if (!isGzip(bytes)) throw refuse(IMPORT_MESSAGES.notGzip);
    try {
      return new TextDecoder().decode(gunzipSync(bytes, { maxOutputLength: MAX_DECOMPRESSED_BYTES }));
    } catch (e) {
      throw refuse((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? IMPORT_MESSAGES.bomb : IMPORT_MESSAGES.notGzip);
    }
  }
  if (!/\.csv$/i.test(name)) throw refuse(IMPORT_MESSAGES.type);
  return new TextDecoder().decode(bytes);
}

/** The multipart `file` of an upload request, refused by size (declared, then actual) before it is read. */
export async function readUserUpload(request: Request): Promise<string> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES + 64 * 1024) throw refuse(IMPORT_MESSAGES.tooLarge);
  if (!(request.headers.get("content-type") ?? "").includes("multipart/form-data")) throw refuse(IMPORT_MESSAGES.choose);
  const form = await request.formData().catch(() => {
    throw new AppError("bad_request", "The upload could not be read; choose the file again.");
  });
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) throw refuse(IMPORT_MESSAGES.choose);
  if (file.size > MAX_UPLOAD_BYTES) throw refuse(IMPORT_MESSAGES.tooLarge);
  if (!/\.(csv|gz)$/i.test(file.name)) throw refuse(IMPORT_MESSAGES.type);
  return decodeUpload(file.name, new Uint8Array(await file.arrayBuffer()));
}

export interface UserImportReport {
  created: number;
  updated: 0;
  skipped: Array<{ line: number; errors: string[] }>;
  skipped_total: number;
}

const list = (text: string | undefined) => (text ?? "").split(/[;|]/).map((s) => s.trim().toLowerCase()).filter(Boolean);

/**
 * Creates a user per row; a row with any problem (bad e-mail, duplicate e-mail in the database or
 * earlier in the file, role the caller may not give, unknown site code, weak password...) is
 * skipped whole with its line and reasons. A row without a password gets a generated one and
 * must choose their own (password_reset_required; they use "forgot password").
 */
export async function importUsers(db: DbOrTx, actor: CurrentUser, customerId: number, text: string): Promise<UserImportReport> {
  await customerForStaff(db, actor, customerId);
  const { headers, rows } = await parseCsv(text);
  if (!headers.includes("email")) throw refuse(IMPORT_MESSAGES.noEmailColumn);
  if (rows.length > MAX_IMPORT_ROWS) throw refuse(IMPORT_MESSAGES.tooManyRows);
  const siteList = await customerSites(db, customerId);
  const byCode = new Map(siteList.map((s) => [s.code.toLowerCase(), s.id]));
  const siteCodes = new Map(siteList.map((s) => [s.id, s.code]));
  const seen = new Set<string>();
  // Rows without a password get a generated one that no one is told (they choose their own
  // through "forgot password", password_reset_required): one argon2 hash of a discarded random
  // password serves them all, so a large file is not 35 ms of hashing per row.
  let generatedHash: Promise<string> | undefined;
  const skipped: UserImportReport["skipped"] = [];
  let created = 0;
  for (const { line, values: v } of rows) {
    const errors: string[] = [];
    const codes = list(v.site_codes);
    const unknown = [...new Set(codes.filter((c) => !byCode.has(c)))];
    if (unknown.length) errors.push(`Unknown site code ${unknown.join(", ")}`);
    const defaultCode = (v.default_site_code ?? "").trim().toLowerCase();
    // the default site is usually one of the row's sites too: an unknown code is named once
    if (defaultCode && !byCode.has(defaultCode) && !unknown.includes(defaultCode)) errors.push(`Unknown site code ${defaultCode}`);
    const email = (v.email ?? "").trim().toLowerCase();
    if (email && seen.has(email)) errors.push("Email appears earlier in the file");
    const given = v.password ?? "";
    const raw: Record<string, unknown> = {
      email: v.email,
      full_name: v.full_name,
      phone_number: v.phone_number,
      role: v.role?.trim().toLowerCase(),
      site_ids: codes.filter((c) => byCode.has(c)).map((c) => byCode.get(c)),
      site_id: defaultCode ? byCode.get(defaultCode) : undefined,
      password: given || undefined,
      password_confirmation: given || undefined,
      ...Object.fromEntries(FLAGS.map((f) => [f, v[f] || undefined])),
    };
    let input;
    try {
      input = await checkUser(db, actor, customerId, raw, null, { siteCodes, passwordGenerated: !given });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // a message of its own names its field; zod's short ones ("must be true or false") get the field's name
      for (const [field, messages] of Object.entries(e.fieldErrors)) errors.push(...messages.map((m) => (/^[a-z]/.test(m) ? `${field} ${m}` : m)));
    }
    if (email) seen.add(email);
    if (errors.length || !input) {
      skipped.push({ line, errors });
      continue;
    }
    try {
      const hash = given ? hashPassword(given) : (generatedHash ??= hashPassword(generatePassword()));
      await insertUser(db, customerId, input, await hash, !given);
      created += 1;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      skipped.push({ line, errors: Object.values(e.fieldErrors).flat() });
    }
  }
  return { created, updated: 0, skipped: skipped.slice(0, UPLOAD_ERRORS_SHOWN), skipped_total: skipped.length };
}
