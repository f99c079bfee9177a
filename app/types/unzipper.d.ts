/** The part of unzipper (no published types) the XLSX reader uses: opening a zip by its central directory. */
declare module "unzipper" {
  import type { Readable } from "node:stream";
  type Directory = { files: Array<{ path: string; type: "File" | "Directory"; stream: () => Readable }> };
  const unzipper: { Open: { file: (path: string) => Promise<Directory> } };
  export default unzipper;
}
