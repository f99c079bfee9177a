/**
 * The stated limit of a CSV upload, shared by the server's checks and the screens' file inputs
 * (which refuse a larger file before sending it: the server's 413 comes back to a screen's
 * JavaScript submission as a body it cannot read).
 */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const FILE_TOO_LARGE = "The file is larger than 10 MB.";

/**
 * The most characters an uploaded cell may hold, CSV or spreadsheet: Excel's own limit, so no
 * spreadsheet gives a longer one (docs/decisions/024; one 9 MB CSV cell took 30.8 s to parse).
 */
export const MAX_CELL_CHARS = 32_767;
/** 'Line 4 has a cell longer than ...', 'Row 9 of sheet Charges has ...'. */
export const longCell = (where: string) => `${where.charAt(0).toUpperCase()}${where.slice(1)} has a cell longer than ${MAX_CELL_CHARS.toLocaleString("en")} characters.`;

/** How many skipped lines an import lists under "Upload Errors" (spec 2 section 9: the first 100). */
export const UPLOAD_ERRORS_SHOWN = 100;

/** An image placed in a notification template (POST /api/notifications_media_upload). */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const IMAGE_TOO_LARGE = "Images must be 2 MB or smaller.";
export const IMAGE_TYPES_ONLY = "Only PNG, JPEG, GIF or WebP images can be uploaded.";
