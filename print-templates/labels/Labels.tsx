/**
 * Item labels (issue 5): one page per label, 100 x 150 mm (4 x 6 in for US senders), portrait or
 * landscape. The consignment number as Code 128 and the item's SSCC-18 as GS1-128, both as inline
 * SVG so the page needs nothing from the network.
 */
import { renderToStaticMarkup } from "react-dom/server";
import bwipjs from "bwip-js/node";

export interface LabelAddress {
  name: string;
  lines: string[];
  place: string;
  phone?: string | null;
}

export interface LabelData {
  consignmentNumber: string;
  sscc: string;
  carrierName: string;
  serviceName: string;
  sender: LabelAddress;
  receiver: LabelAddress;
  index: number;
  total: number;
  itemType: string;
  weight: string;
  dimensions: string;
  dangerousGoods: string[];
  specialInstructions: string | null;
  reference: string | null;
  despatchDate: string;
  /** this label's paper, where a batch mixes sizes or orientations (else the document's) */
  page?: LabelPage;
}

export interface LabelPage {
  width: string;
  height: string;
}

/** 100 x 150 mm, or 4 x 6 in for US senders; landscape swaps the sides. */
export function labelPage(imperial: boolean, portrait: boolean): LabelPage {
  const [w, h] = imperial ? ["4in", "6in"] : ["100mm", "150mm"];
  return portrait ? { width: w, height: h } : { width: h, height: w };
}

/**
 * A linear barcode as SVG: bwip-js encodes (raw: the bar and space widths in modules) and the
 * bars are drawn here as rectangles, with a 10-module quiet zone each side. Drawing them here is
 * five times quicker than bwip-js's own SVG, which matters for a batch of labels.
 */
export function barcodeSvg(bcid: "code128" | "gs1-128", text: string, heightModules: number): string {
  const [symbol] = bwipjs.raw({ bcid, text }) as Array<{ sbs: number[] }>;
  const quiet = 10;
  let x = quiet;
  let d = "";
  symbol!.sbs.forEach((w, i) => {
    // widths alternate bar, space, bar, ... starting with a bar; all bars are one path
    if (i % 2 === 0) d += `M${x} 0h${w}v${heightModules}h-${w}z`;
    x += w;
  });
  const width = x + quiet;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${heightModules}" preserveAspectRatio="none" shape-rendering="crispEdges"><path fill="#000" d="${d}"/></svg>`;
}

/** The SSCC as people read it: (00) then the 18 digits. */
export const ssccText = (sscc: string) => `(00) ${sscc}`;

function Label({ l, numberSvg, pageClass }: { l: LabelData; numberSvg: (text: string) => string; pageClass: string }) {
  const number = numberSvg(l.consignmentNumber);
  const sscc = barcodeSvg("gs1-128", `(00)${l.sscc}`, 60);
  return (
    <section className={`label ${pageClass}`}>
      <header>
        <div className="carrier">{l.carrierName}</div>
        <div className="service">{l.serviceName}</div>
        <div className="count">
          Item {l.index} of {l.total}
        </div>
      </header>
      <div className="to">
        <div className="caption">TO</div>
        <div className="name">{l.receiver.name}</div>
        {l.receiver.lines.map((line, i) => (
          <div key={i}>{line}</div>
        ))}
        <div className="place">{l.receiver.place}</div>
        {l.receiver.phone ? <div>Ph {l.receiver.phone}</div> : null}
      </div>
      <div className="from">
        <span className="caption">FROM</span> {l.sender.name}, {[...l.sender.lines, l.sender.place].join(", ")}
      </div>
      <div className="facts">
        <div>
          <span className="caption">Con</span> {l.consignmentNumber}
        </div>
        <div>
          <span className="caption">Date</span> {l.despatchDate}
        </div>
        <div>
          <span className="caption">Item</span> {l.itemType}
        </div>
        <div>
          <span className="caption">Weight</span> {l.weight}
        </div>
        <div>
          <span className="caption">Dims</span> {l.dimensions}
        </div>
        {l.reference ? (
          <div>
            <span className="caption">Ref</span> {l.reference}
          </div>
        ) : null}
      </div>
      {l.dangerousGoods.length ? <div className="dg">DANGEROUS GOODS {l.dangerousGoods.join(" · ")}</div> : null}
      {l.specialInstructions ? <div className="instructions">{l.specialInstructions}</div> : null}
      <div className="barcode" dangerouslySetInnerHTML={{ __html: number }} />
      <div className="barcode sscc" dangerouslySetInnerHTML={{ __html: sscc }} />
      <div className="hri">{ssccText(l.sscc)}</div>
    </section>
  );
}

// each paper size of the document is a CSS named page (Chromium prints each on its own size), so a
// batch mixing portrait and landscape, or 100 x 150 mm and 4 x 6 in, prints each on its own
const CSS = (pages: LabelPage[]) => `
@page { size: ${pages[0]!.width} ${pages[0]!.height}; margin: 0; }
${pages.map((p, i) => `@page lp${i} { size: ${p.width} ${p.height}; margin: 0; }\n.label.lp${i} { page: lp${i}; width: ${p.width}; height: ${p.height}; }`).join("\n")}
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9pt; color: #000; }
.label { padding: 3mm; page-break-after: always; overflow: hidden; display: flex; flex-direction: column; gap: 1.5mm; }
.label:last-child { page-break-after: auto; }
header { display: flex; justify-content: space-between; align-items: baseline; border-bottom: 0.6mm solid #000; padding-bottom: 1mm; }
.carrier { font-weight: bold; font-size: 12pt; }
.count { font-weight: bold; }
.caption { font-size: 7pt; font-weight: bold; text-transform: uppercase; }
.to .name { font-size: 13pt; font-weight: bold; }
.to .place { font-size: 12pt; font-weight: bold; }
.from { font-size: 7.5pt; }
.facts { display: grid; grid-template-columns: 1fr 1fr; gap: 0.5mm 2mm; }
.dg { border: 0.6mm solid #000; padding: 1mm; font-weight: bold; text-align: center; }
.instructions { border: 0.3mm dashed #000; padding: 1mm; }
.barcode svg { width: 100%; height: 16mm; display: block; }
.barcode.sscc svg { height: 26mm; }
.hri { text-align: center; font-family: "DejaVu Sans Mono", monospace; font-size: 10pt; letter-spacing: 0.5pt; }
`;

/** The labels of one or more consignments as one HTML document, a page each. */
export function renderLabelsHtml(labels: LabelData[], page: LabelPage): string {
  // a batch repeats its consignment numbers: each barcode is drawn once (bwip-js costs about 1 ms a barcode)
  const drawn = new Map<string, string>();
  const numberSvg = (text: string) => {
    let out = drawn.get(text);
    if (!out) {
      out = barcodeSvg("code128", text, 40);
      drawn.set(text, out);
    }
    return out;
  };
  const pages: LabelPage[] = [page];
  const pageClass = (p: LabelPage = page) => {
    let i = pages.findIndex((q) => q.width === p.width && q.height === p.height);
    if (i < 0) i = pages.push(p) - 1;
    return `lp${i}`;
  };
  const body = renderToStaticMarkup(
    <>
      {labels.map((l, i) => (
        <Label key={i} l={l} numberSvg={numberSvg} pageClass={pageClass(l.page)} />
      ))}
    </>,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Labels</title><style>${CSS(pages)}</style></head><body>${body}</body></html>`;
}

/** ZPL II for thermal printers (203 dpi, 4 x 6 in): the same texts and both barcodes. */
export function renderLabelsZpl(labels: LabelData[]): string {
  const clean = (s: string) => s.replace(/[\^~\\]/g, " ");
  return labels
    .map((l) =>
      [
        "^XA",
        "^CI28",
        `^FO20,20^A0N,40,40^FD${clean(l.carrierName)}^FS`,
        `^FO20,65^A0N,28,28^FD${clean(l.serviceName)}^FS`,
        `^FO560,20^A0N,30,30^FDItem ${l.index} of ${l.total}^FS`,
        `^FO20,110^A0N,24,24^FDTO^FS`,
        `^FO20,140^A0N,40,40^FD${clean(l.receiver.name)}^FS`,
        ...l.receiver.lines.map((line, i) => `^FO20,${185 + i * 30}^A0N,28,28^FD${clean(line)}^FS`),
        `^FO20,${185 + l.receiver.lines.length * 30}^A0N,36,36^FD${clean(l.receiver.place)}^FS`,
        `^FO20,330^A0N,22,22^FDFROM ${clean(l.sender.name)}, ${clean(l.sender.place)}^FS`,
        `^FO20,370^A0N,26,26^FDCon ${clean(l.consignmentNumber)}  ${clean(l.weight)}  ${clean(l.dimensions)}^FS`,
        ...(l.dangerousGoods.length ? [`^FO20,410^GB770,50,4^FS`, `^FO35,422^A0N,30,30^FDDANGEROUS GOODS ${clean(l.dangerousGoods.join(" "))}^FS`] : []),
        ...(l.specialInstructions ? [`^FO20,475^A0N,24,24^FD${clean(l.specialInstructions)}^FS`] : []),
        `^FO40,520^BY3^BCN,120,N,N,N^FD${clean(l.consignmentNumber)}^FS`,
        // GS1-128: >; starts code set C, >8 is FNC1
        `^FO40,700^BY3^BCN,200,N,N,N^FD>;>800${l.sscc}^FS`,
        `^FO120,915^A0N,32,32^FD${ssccText(l.sscc)}^FS`,
        "^XZ",
      ].join("\n"),
    )
    .join("\n");
}
