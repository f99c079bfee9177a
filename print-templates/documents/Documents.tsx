/**
 * A4 documents (issue 5): the consignment note ("Con Note", "BOL" for US senders) and the
 * dangerous goods document. Self-contained HTML: inline CSS and inline SVG barcodes.
 */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { ConsignmentJson } from "../../app/modules/consignments/consignments.server";
import { formatDate, formatVolume, formatWeight, summarise } from "../../app/modules/consignments/rules";
import { barcodeSvg } from "../labels/Labels";

export interface DocumentConsignment {
  c: ConsignmentJson;
  /** the site's emergency contact for dangerous goods */
  dgContact: { name: string | null; phone: string | null };
}

/** Blank class fields print NIL (spec 3 section 9). */
export const nil = (v: string | null | undefined) => (v && v.trim() ? v : "NIL");

const isUs = (c: ConsignmentJson) => c.sender_address?.country === "UNITED STATES OF AMERICA";
export const documentTerm = (c: ConsignmentJson) => (isUs(c) ? "BOL" : "Con Note");

function Address({ title, a }: { title: string; a: ConsignmentJson["sender_address"] }) {
  return (
    <div className="box">
      <div className="caption">{title}</div>
      <div className="strong">{a?.name}</div>
      {[a?.address_line_1, a?.address_line_2].filter(Boolean).map((l, i) => (
        <div key={i}>{l}</div>
      ))}
      <div>{[a?.sublocality, a?.locality, a?.region, a?.postcode].filter(Boolean).join(" ")}</div>
      <div>{a?.country}</div>
      {a?.phone ? <div>Ph {a.phone}</div> : null}
    </div>
  );
}

/** A document's head: its title and lines on the left, its number as Code 128 on the right. */
export function DocumentHead({ title, number, showNumber = true, children }: { title: string; number: string; showNumber?: boolean; children: ReactNode }) {
  return (
    <header className="head">
      <div>
        <div className="title">{title}</div>
        {children}
      </div>
      <div className="number">
        <div dangerouslySetInnerHTML={{ __html: barcodeSvg("code128", number, 30) }} />
        {showNumber ? <div className="strong">{number}</div> : null}
      </div>
    </header>
  );
}

function ConNote({ d }: { d: DocumentConsignment }) {
  const { c } = d;
  const som = c.som;
  const lines = c.items.map((i) => ({ quantity: i.quantity, itemTypeId: i.item_type_id, length: i.length ?? 0, width: i.width ?? 0, height: i.height ?? 0, weight: i.weight_in_uom ?? 0, dangerousGoods: i.dangerous_goods_items.length > 0, dangerousGoodsItems: i.dangerous_goods_items }));
  const totals = summarise(lines, som);
  const unit = som === "imperial" ? "in" : "cm";
  return (
    <section className="page">
      <DocumentHead title={documentTerm(c)} number={c.consignment_number!}>
        <div>
          {c.carrier_name} · {c.service_name}
        </div>
      </DocumentHead>
      <div className="grid2">
        <Address title="Sender" a={c.sender_address} />
        <Address title="Receiver" a={c.receiver_address} />
      </div>
      <table className="facts">
        <tbody>
          <tr>
            <th>Despatch date</th>
            <td>{formatDate(c.despatch_date, c.sender_address?.country)}</td>
            <th>Reference</th>
            <td>{c.reference}</td>
          </tr>
          <tr>
            <th>Account payable</th>
            <td>
              {c.account_payable}
              {c.charge_account ? ` (${c.charge_account})` : ""}
            </td>
            <th>Custom reference</th>
            <td>{c.custom_reference}</td>
          </tr>
          <tr>
            <th>Special instructions</th>
            <td colSpan={3}>{c.special_instructions}</td>
          </tr>
        </tbody>
      </table>
      <table className="items">
        <thead>
          <tr>
            <th>Qty</th>
            <th>Item</th>
            <th>Reference</th>
            <th>L x W x H ({unit})</th>
            <th>Weight</th>
            <th>Volume</th>
            <th>DG</th>
          </tr>
        </thead>
        <tbody>
          {c.items.map((i) => (
            <tr key={i.id}>
              <td>{i.quantity}</td>
              <td>{i.item_type_description}</td>
              <td>{i.reference}</td>
              <td>
                {i.length} x {i.width} x {i.height}
              </td>
              <td>{formatWeight(i.weight_in_uom ?? 0, som)}</td>
              <td>{i.total_volume == null ? "" : formatVolume(i.total_volume, som)}</td>
              <td>{i.dangerous_goods_items.map((g) => `UN${g.un_number} ${nil(g.hazard_class)}`).join(", ")}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>{totals.packages}</th>
            <th colSpan={3}>
              Total: {totals.items} lines, {totals.packages} packages{totals.hazardousItems ? `, ${totals.hazardousItems} hazardous` : ""}
            </th>
            <th>{formatWeight(totals.weight, som)}</th>
            <th>{formatVolume(totals.volume, som)}</th>
            <th>{totals.aggregateQuantity || ""}</th>
          </tr>
        </tfoot>
      </table>
      <div className="signatures">
        {["Sender", "Driver", "Received in good order"].map((s) => (
          <div key={s} className="sign">
            <div className="line" />
            <div className="caption">{s}: signature, name, date and time</div>
          </div>
        ))}
      </div>
    </section>
  );
}

function DgDocument({ d }: { d: DocumentConsignment }) {
  const { c, dgContact } = d;
  const rows = c.items.flatMap((i) => i.dangerous_goods_items.map((g) => ({ g, item: i })));
  const unit = c.som === "imperial" ? "lb" : "kg";
  return (
    <section className="page">
      <DocumentHead title="Dangerous goods document" number={c.consignment_number!} showNumber={false}>
        <div>
          {c.carrier_name} · {c.service_name} · {documentTerm(c)} {c.consignment_number}
        </div>
      </DocumentHead>
      <div className="grid2">
        <Address title="Consignor" a={c.sender_address} />
        <Address title="Consignee" a={c.receiver_address} />
      </div>
      <table className="items">
        <thead>
          <tr>
            <th>UN number</th>
            <th>Proper shipping name</th>
            <th>Class</th>
            <th>Sub risk</th>
            <th>Packing group</th>
            <th>Packages</th>
            <th>Aggregate quantity</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ g, item }, i) => (
            <tr key={i}>
              <td>UN{g.un_number}</td>
              <td>
                {g.proper_shipping_name}
                {g.technical_name ? ` (${g.technical_name})` : ""}
              </td>
              <td>{nil(g.hazard_class)}</td>
              <td>{nil(g.sub_hazard)}</td>
              <td>{nil(g.packing_group)}</td>
              <td>
                {item.quantity} x {item.item_type_description}
              </td>
              <td>{g.weight_in_uom == null ? "NIL" : `${g.weight_in_uom} ${unit}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="box">
        <div className="caption">Emergency contact</div>
        <div className="strong">
          {dgContact.name ?? "NIL"} · {dgContact.phone ?? "NIL"}
        </div>
      </div>
      <p>
        I declare that the contents of this consignment are fully and accurately described above by the proper shipping name, are classified, packaged, marked and
        labelled, and are in all respects in proper condition for transport according to the applicable regulations.
      </p>
      <div className="signatures">
        <div className="sign">
          <div className="line" />
          <div className="caption">Consignor: signature, name, date</div>
        </div>
      </div>
    </section>
  );
}

const CSS = `
@page { size: A4; margin: 10mm; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; font-size: 9pt; color: #000; }
.page { page-break-after: always; display: flex; flex-direction: column; gap: 4mm; }
.page:last-child { page-break-after: auto; }
.head { display: flex; justify-content: space-between; align-items: flex-start; border-bottom: 0.5mm solid #000; padding-bottom: 2mm; }
.title { font-size: 18pt; font-weight: bold; }
.number { width: 70mm; text-align: center; }
.number svg { width: 100%; height: 14mm; display: block; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; }
.box { border: 0.3mm solid #000; padding: 2mm; }
.caption { font-size: 7pt; font-weight: bold; text-transform: uppercase; }
.strong { font-weight: bold; }
table { width: 100%; border-collapse: collapse; }
th, td { border: 0.2mm solid #000; padding: 1mm 1.5mm; text-align: left; vertical-align: top; }
.facts th { width: 18%; background: #eee; }
.items thead th, .items tfoot th { background: #eee; }
.signatures { display: grid; grid-template-columns: repeat(3, 1fr); gap: 6mm; margin-top: 8mm; }
.sign .line { border-bottom: 0.3mm solid #000; height: 14mm; }
`;

/** A whole A4 document around rendered pages. */
export function documentHtml(title: string, body: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${CSS}</style></head><body>${body}</body></html>`;
}

export const A4 = { width: "210mm", height: "297mm", margin: { top: "10mm", bottom: "10mm", left: "10mm", right: "10mm" } };

export function renderConsignmentNotesHtml(docs: DocumentConsignment[]): string {
  return documentHtml("Consignment notes", renderToStaticMarkup(<>{docs.map((d) => <ConNote key={d.c.id} d={d} />)}</>));
}

export function renderDangerousGoodsHtml(docs: DocumentConsignment[]): string {
  return documentHtml("Dangerous goods documents", renderToStaticMarkup(<>{docs.map((d) => <DgDocument key={d.c.id} d={d} />)}</>));
}
