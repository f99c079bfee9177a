/**
 * Screens the shell links to that later releases build. Each first path segment here shows a
 * plain "coming in a later release" page instead of sending the user away, so every link leads
 * somewhere real. Remove a line when its screen lands.
 */
export const PLANNED_SCREENS: Record<string, { title: string; release: string }> = {
};

/**
 * A consignment's screens that later releases build, at /consignment/{id}/{screen}; until one
 * lands that page says so for the consignment. (Tracking is /tracking/{id}, Enquiries
 * /consignment/{id}/enquiries.)
 */
export const PLANNED_CONSIGNMENT_SCREENS: Record<string, { title: string; release: string }> = {};
