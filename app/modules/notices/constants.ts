/** Notices page size (spec 1 section 9); shared by the notices module and the home page. */
export const NOTICES_PAGE_SIZE = 20;
