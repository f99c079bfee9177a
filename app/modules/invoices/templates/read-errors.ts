/** The messages a carrier file's readers refuse it with (readers.server.ts, sheet-reader.server.ts). */
import { brandedError } from "../../../utils/errors";
import { longCell, MAX_CELL_CHARS } from "../../../utils/upload-limits";

export { longCell, MAX_CELL_CHARS };

export const INVALID_FILE_FORMAT = "Invalid file format";
export const FAILED_TO_READ = "Failed to read in file.";
export const EMPTY_FILE = "The file is empty.";
export const TOO_LARGE_UNPACKED = "The file is too large once unpacked";
export const noSheet = (sheets: string[]) => `The file has no sheet named ${sheets.join(", ")}.`;

/** A file that cannot be read as its template says: its message is shown as it is. */
export class FileReadError extends brandedError("FileReadError") {}
