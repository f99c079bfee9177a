/**
 * The stated limits of the recipients screen and its /api calls, shared by the server's checks
 * and the screen's file input (spec 2: page 40, lazy load at 80 percent, 100 upload errors shown).
 */
export const PAGE_SIZE = 40;
export const MAX_PAGE_SIZE = 200;
/** how far down the list (share of its height) the next page is fetched */
export const LOAD_AT = 0.8;

/**
 * A csv or gz file as sent is held to every upload's limit (MAX_UPLOAD_BYTES, 10 MB, also kept by
 * the Express body limit); a larger address book (100,000 recipients are about 11 MB of csv) is
 * sent as gz, which is unpacked no further than this: a gz bomb is cut off here, not in memory.
 */
export const MAX_RECIPIENTS_UNPACKED_BYTES = 50 * 1024 * 1024;
export const RECIPIENTS_UNPACKED_TOO_LARGE = "The gz file unpacks to more than 50 MB.";
/**
 * Recipients in one file (issue 35 item 6): a file of more is refused whole, before a line of it
 * is stored. The import runs as a job; 200,000 lines are well inside the 50 MB a gz may unpack to.
 */
export const MAX_RECIPIENT_ROWS = 200_000;
export const RECIPIENTS_TOO_MANY_ROWS = "The file has more than 200,000 recipients: import at most 200,000 lines per file.";
/** A line longer than this is no recipient (15 columns of a few hundred characters at most). */
export const MAX_RECIPIENT_LINE_CHARS = 65_536;
export const RECIPIENTS_TYPES_ONLY = "Only csv or gz files can be imported.";

/** The columns of an import file, in the order of the export and the template (header names). */
export const RECIPIENT_COLUMNS = [
  "name",
  "code",
  "address_line_1",
  "address_line_2",
  "address_line_3",
  "address_line_4",
  "sublocality",
  "locality",
  "postcode",
  "region",
  "country",
  "phone",
  "email",
  "special_instructions",
  "address_type",
] as const;
/** Without these the file is refused whole (country defaults to AUSTRALIA). */
export const REQUIRED_COLUMNS = ["name", "address_line_1", "locality", "postcode"] as const;
export { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";
