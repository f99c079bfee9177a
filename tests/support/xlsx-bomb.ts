/**
 * Zip bombs shaped as XLSX files, made in memory and small (issue 35 finding 4): a workbook whose
 * xl/sharedStrings.xml inflates to gigabytes of strings. The deflate stream is one compressed
 * megabyte of `<si>` elements repeated: each copy is a full-flushed segment of its own (no
 * reference reaches outside it, and it ends on a byte boundary), so copies concatenate into one
 * valid stream at about 1,000 to 1 without deflating gigabytes here.
 */
import { constants, deflateRawSync } from "node:zlib";

const MB = 1024 * 1024;
const flushed = (text: string) => deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_FULL_FLUSH });

/** A raw deflate stream of a shared strings part that inflates to about `megabytes` units of `unitBytes` (1 MB). */
export function sharedStringsBomb(megabytes: number, unitBytes = MB): { data: Buffer; size: number } {
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
  const one = `<si><t>${"A".repeat(16_000)}</t></si>`;
  const unit = one.repeat(Math.max(1, Math.floor(unitBytes / one.length)));
  const copy = flushed(unit);
  const tail = "</sst>";
  const data = Buffer.concat([flushed(head), ...Array<Buffer>(megabytes).fill(copy), deflateRawSync(Buffer.from(tail))]);
  return { data, size: head.length + unit.length * megabytes + tail.length };
}

interface Part {
  name: string;
  data: Buffer;
  /** the uncompressed size the zip's directory declares */
  size: number;
  method: 0 | 8;
}

const stored = (name: string, text: string): Part => ({ name, data: Buffer.from(text), size: Buffer.byteLength(text), method: 0 });

/** A zip of `parts` (CRCs left 0: neither zlib's raw inflate nor the readers check them). */
export function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let at = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(p.method, 8);
    local.writeUInt32LE(p.data.length, 18);
    local.writeUInt32LE(p.size, 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(p.method, 10);
    cd.writeUInt32LE(p.data.length, 20);
    cd.writeUInt32LE(p.size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(at, 42);
    locals.push(local, name, p.data);
    central.push(cd, name);
    at += 30 + name.length + p.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([...locals, cd, end]);
}

/**
 * An XLSX of one sheet whose cells name shared strings, the strings a bomb of `megabytes` MB.
 * `declared`: the size the directory states for the strings part; the truth by default, or a
 * lie (a small number) that only counting the inflated bytes can catch.
 */
export function xlsxBomb(megabytes: number, declared?: number, unitBytes = MB): Uint8Array {
  const bomb = sharedStringsBomb(megabytes, unitBytes);
  return xlsxWithStrings(bomb.data, declared ?? bomb.size);
}

/** An XLSX of one sheet of five rows naming shared strings 0 to 4, its strings part `data` (raw deflate) declared as `size` bytes. */
export function xlsxWithStrings(data: Buffer, size: number): Uint8Array {
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const rows = Array.from({ length: 5 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i}</v></c></row>`).join("");
  return new Uint8Array(
    zipOf([
      stored("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>'),
      stored("xl/workbook.xml", `<?xml version="1.0"?><workbook ${ns}><sheets><sheet name="Invoice" sheetId="1" r:id="rId1"/></sheets></workbook>`),
      stored(
        "xl/_rels/workbook.xml.rels",
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      { name: "xl/sharedStrings.xml", data, size, method: 8 },
      stored("xl/worksheets/sheet1.xml", `<?xml version="1.0"?><worksheet ${ns}><sheetData>${rows}</sheetData></worksheet>`),
    ]),
  );
}
