/** Print messages of spec 1 section 8 (singular and plural). Pure, for the screens. */
export type PrinterKind = "label" | "manifest" | "connote";

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

export const printMessages = {
  sent: (count: number, noun = "label") => `${plural(count, noun)} sent to printer.`,
  printed: (count: number, noun = "label") => `${plural(count, noun)} printed.`,
  failed: (count: number, noun = "label") => `${plural(count, noun)} failed to print.`,
  noPrinter: (kind: PrinterKind) => `You do not have a valid ${kind} printer configured, please update your printer configuration and re-print.`,
  saveFailed: (kind: PrinterKind) => `Error saving new configuration for ${kind} printer.`,
};
