import type { AccessSubject } from "../auth/roles";

/** What a bulk upload file makes: consignments or quotes (spec 2 section 5). */
export const UPLOAD_KINDS = ["consignment", "quote"] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const KIND_REFUSED: Record<UploadKind, string> = {
  consignment: "You may not bulk upload consignments.",
  quote: "You may not bulk upload quotes.",
};

/** A consignment file needs can_bulkupload, a quote file can_bulkquote (spec 2 section 6). */
export const mayUploadKind = (u: AccessSubject, kind: UploadKind) => (kind === "quote" ? Boolean(u.canBulkquote) : Boolean(u.canBulkupload));

/** The kinds this user may upload, in the screen's order. */
export const kindsFor = (u: AccessSubject) => UPLOAD_KINDS.filter((k) => mayUploadKind(u, k));
