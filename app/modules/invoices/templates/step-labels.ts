/**
 * How the template editor names each step action and choice (issue 31 #6: ROW_INDEXES and
 * COLUMN_MATCH were shown as they are stored). The codes stay in the form's values and the API;
 * editor-form.test.ts checks that every action and choice of every step type has a label.
 */
export const ACTION_LABELS: Record<string, string> = {
  ROW_INDEXES: "Rows by number",
  COLUMN_MATCH: "Rows whose column matches",
  COPY: "Copy a column",
  REPLACE: "Replace text",
  STRIP: "Remove characters",
  WEEKS_TO_DATE: "Week number to date",
  CALCULATE: "Calculate",
  SUM: "Add up",
  JOIN: "Join text",
  CELLS: "Header cells",
  SIZE: "A fixed number of rows",
  CONTINUATION: "Continuation rows",
  ROW_INDEX: "A header row",
  MAPPINGS: "Renames",
};

/** The choices of a step's choice fields (CALCULATE's operation). */
export const CHOICE_LABELS: Record<string, string> = {
  SUM: "Sum",
  DIFFERENCE: "Difference (the first less the others)",
  PRODUCT: "Product",
};

/** An action's label; a code without one (none should be: the test) as it is. */
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;
