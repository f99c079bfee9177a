/**
 * The proof of delivery the simulated carrier "collects" (issue 14 item 2): a small SVG card with
 * the receiver's name, the consignment, where and when, and a signature drawn from the name, so
 * the same delivery always shows the same card. Every text is escaped: names come from users.
 */

export interface PodCard {
  carrierName: string;
  consignmentNumber: string;
  receiverName: string;
  place: string;
  /** as the receiver's clock reads it */
  deliveredAt: string;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** A scribble seeded by the name: a pen stroke across the signature line. */
function signaturePath(name: string): string {
  let seed = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) || 1;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const points: string[] = ["M 40 150"];
  for (let x = 60; x <= 300; x += 20) points.push(`Q ${x - 10} ${120 + next() * 40} ${x} ${135 + next() * 20}`);
  return points.join(" ");
}

export function podSvg(card: PodCard): string {
  const line = (y: number, text: string, size = 13, weight = "normal") =>
    `<text x="20" y="${y}" font-family="Helvetica, Arial, sans-serif" font-size="${size}" font-weight="${weight}" fill="#1f2937">${escapeXml(text)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="240" viewBox="0 0 420 240" role="img" aria-label="${escapeXml(`Proof of delivery: consignment ${card.consignmentNumber}, signed by ${card.receiverName}`)}">`,
    `<rect x="1" y="1" width="418" height="238" rx="8" fill="#ffffff" stroke="#9ca3af" stroke-width="2"/>`,
    line(30, `${card.carrierName}: proof of delivery`, 15, "bold"),
    line(52, `Consignment ${card.consignmentNumber}`),
    line(72, `Delivered to ${card.receiverName}`),
    line(92, `${card.place}, ${card.deliveredAt}`),
    `<path d="${signaturePath(card.receiverName)}" fill="none" stroke="#1d4ed8" stroke-width="2" stroke-linecap="round"/>`,
    `<line x1="20" y1="170" x2="320" y2="170" stroke="#6b7280" stroke-width="1"/>`,
    line(190, `Signed: ${card.receiverName}`, 12),
    `</svg>`,
  ].join("\n");
}
