/**
 * Copies text for the dialogs' Copy buttons: the Clipboard API, or, without its permission (an
 * insecure origin), the old way from `input` (selected first), which shows the same text.
 */
export async function copyText(text: string, input: HTMLInputElement | null | undefined): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    input?.select();
    document.execCommand("copy");
  }
}
