/**
 * The despatch manifest report (issue 5): per manifest, its consignments and totals
 * (consignments, items, weight, volume, hazardous goods) and a signature block; A4 with 10 mm
 * top and bottom margins.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { ConsignmentJson } from "../../app/modules/consignments/consignments.server";
import { formatVolume, formatWeight, summarise } from "../../app/modules/consignments/rules";
import { DocumentHead, documentHtml } from "./Documents";

export interface ManifestDocument {
  number: string;
  carrierName: string;
  accountNumber: string;
  siteName: string;
  despatchTime: string | null;
  failedDespatch: boolean;
  consignments: ConsignmentJson[];
}

const linesOf = (c: ConsignmentJson) =>
  c.items.map((i) => ({ quantity: i.quantity, length: i.length ?? 0, width: i.width ?? 0, height: i.height ?? 0, weight: i.weight_in_uom ?? 0, dangerousGoods: i.dangerous_goods_items.length > 0, dangerousGoodsItems: i.dangerous_goods_items }));

/** Totals of a manifest: consignments, items (packages), weight, volume, hazardous goods (packages). */
export function manifestTotals(m: ManifestDocument) {
  const som = m.consignments[0]?.som ?? "metric";
  const all = summarise(m.consignments.flatMap(linesOf), som);
  return { consignments: m.consignments.length, items: all.packages, weight: all.weight, volume: all.volume, hazardous: all.hazardousItems, som };
}

function Manifest({ m }: { m: ManifestDocument }) {
  const t = manifestTotals(m);
  return (
    <section className="page">
      <DocumentHead title="Despatch manifest" number={m.number}>
        <div>
          {m.carrierName} · account {m.accountNumber} · {m.siteName}
        </div>
        <div>Despatched {m.despatchTime ?? "—"}</div>
        {m.failedDespatch ? <div className="strong">FAILED DESPATCH</div> : null}
      </DocumentHead>
      <table className="items">
        <thead>
          <tr>
            <th>Consignment</th>
            <th>Receiver</th>
            <th>Reference</th>
            <th>Service</th>
            <th>Items</th>
            <th>Weight</th>
            <th>Volume</th>
            <th>DG</th>
          </tr>
        </thead>
        <tbody>
          {m.consignments.map((c) => {
            const s = summarise(linesOf(c), c.som);
            return (
              <tr key={c.id}>
                <td>{c.consignment_number}</td>
                <td>
                  {c.receiver_address?.name}, {c.receiver_address?.locality} {c.receiver_address?.postcode}
                </td>
                <td>{c.reference}</td>
                <td>{c.service_name}</td>
                <td>{s.packages}</td>
                <td>{formatWeight(s.weight, c.som)}</td>
                <td>{formatVolume(s.volume, c.som)}</td>
                <td>{s.hazardousItems || ""}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th colSpan={4}>Totals: {t.consignments} consignments</th>
            <th>{t.items}</th>
            <th>{formatWeight(t.weight, t.som)}</th>
            <th>{formatVolume(t.volume, t.som)}</th>
            <th>{t.hazardous}</th>
          </tr>
        </tfoot>
      </table>
      <div className="signatures">
        {["Despatched by", "Received by the carrier"].map((s) => (
          <div key={s} className="sign">
            <div className="line" />
            <div className="caption">{s}: signature, name, date and time</div>
          </div>
        ))}
      </div>
    </section>
  );
}

export function renderManifestsHtml(manifests: ManifestDocument[]): string {
  return documentHtml("Despatch manifests", renderToStaticMarkup(<>{manifests.map((m) => <Manifest key={m.number} m={m} />)}</>));
}
