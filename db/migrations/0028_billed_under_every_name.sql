-- A charge is claimed under every name of its consignment (decision 021, "Every name"): ours
-- (c<id>) and the carrier's consignment number (n<carrier>:<NUMBER>), the consignment's own and
-- the line's. Charges billed before this carry only their first name: give them the others, so a
-- line of the same consignment that was unmatched (or matched) then is found now. Where two
-- billings now share a name, the first (by line) holds it and the later one is kept as a rebill
-- that says so, as migration 0024 did.
CREATE TEMP TABLE billed_names AS
SELECT DISTINCT n.key, b.category, b.invoice_detail_id, b.rebill, b.note, b.created_by_id, b.created_at
FROM billed_charges b
JOIN invoice_details d ON d.id = b.invoice_detail_id
LEFT JOIN consignments c ON c.id = d.consignment_id
LEFT JOIN carrier_accounts a ON a.id = c.carrier_account_id
CROSS JOIN LATERAL (VALUES
  (CASE WHEN d.consignment_id IS NOT NULL THEN 'c' || d.consignment_id END),
  (CASE WHEN c.consignment_number IS NOT NULL THEN 'n' || coalesce(a.carrier_id::text, '') || ':' || upper(c.consignment_number) END),
  (CASE WHEN d.consignment_number IS NOT NULL THEN 'n' || coalesce(d.carrier_id::text, '') || ':' || upper(d.consignment_number) END)
) AS n(key)
WHERE n.key IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM billed_charges o WHERE o.invoice_detail_id = b.invoice_detail_id AND o.category = b.category AND o.consignment_key = n.key);
--> statement-breakpoint
-- the first billing of each (name, category), over the rows there are and the names to come
CREATE TEMP TABLE billed_first AS
SELECT key, category, min(invoice_detail_id) AS invoice_detail_id FROM (
  SELECT consignment_key AS key, category, invoice_detail_id FROM billed_charges WHERE NOT rebill
  UNION ALL
  SELECT key, category, invoice_detail_id FROM billed_names WHERE NOT rebill
) x GROUP BY key, category;
--> statement-breakpoint
UPDATE billed_charges b SET rebill = true, note = 'Billed again before migration 0028'
FROM billed_first f
WHERE NOT b.rebill AND f.key = b.consignment_key AND f.category = b.category AND f.invoice_detail_id <> b.invoice_detail_id;
--> statement-breakpoint
INSERT INTO billed_charges (consignment_key, category, invoice_detail_id, rebill, note, created_by_id, created_at)
SELECT n.key, n.category, n.invoice_detail_id, n.rebill OR f.invoice_detail_id <> n.invoice_detail_id,
  CASE WHEN NOT n.rebill AND f.invoice_detail_id <> n.invoice_detail_id THEN 'Billed again before migration 0028' ELSE n.note END,
  n.created_by_id, n.created_at
FROM billed_names n JOIN billed_first f ON f.key = n.key AND f.category = n.category;
--> statement-breakpoint
DROP TABLE billed_names;
--> statement-breakpoint
DROP TABLE billed_first;
