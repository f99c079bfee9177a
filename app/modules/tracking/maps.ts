/**
 * Who sees the journey map (spec 1 track and trace: "Maps are available only to developer users
 * or in QA/development environments"; issue 14 item 4). Pure, so a loader and a component ask the
 * same question.
 */
import type { RoleName } from "../auth/roles";

/** The developer role (typed, so renaming the role breaks this file rather than the rule). */
const DEVELOPER: RoleName = "devs";

/** APP_ENV values that are not a live install: development and the two test environments. */
export const MAP_ENVIRONMENTS: readonly string[] = ["development", "qa", "uat"];

export function mapsAvailable(user: { role: string }, appEnv: string): boolean {
  return user.role === DEVELOPER || MAP_ENVIRONMENTS.includes(appEnv);
}
