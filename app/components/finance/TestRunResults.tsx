import type { TestRunResult } from "~/modules/invoices/templates/test-run.server";

const keysOf = (rows: { values: Record<string, string> }[]) => [...new Set(rows.flatMap((r) => Object.keys(r.values)))];

/** Every column key the last test run saw, offered to the column inputs. */
export function ColumnsSeen({ run }: { run: TestRunResult | null }) {
  const keys = run ? [...new Set(run.steps.flatMap((s) => keysOf(s.rows)))] : [];
  return (
    <datalist id="columns-seen">
      {keys.map((k) => (
        <option key={k} value={k} />
      ))}
    </datalist>
  );
}

/** The test run: the problems, the rows after each step (tables keyed by column) and the mapped lines. */
export function TestRunResults({ run }: { run: TestRunResult }) {
  return (
    <div className="space-y-3" data-testid="test-run-results">
      {run.problems.length ? (
        <div role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">Problems ({run.problems.length})</p>
          <ul className="list-disc pl-5">
            {run.problems.map((p, i) => (
              <li key={i}>
                row {p.row}
                {p.sheet ? ` of sheet ${p.sheet}` : ""}, step {p.step} {p.step_name}: {p.message}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p role="status">No problems.</p>
      )}
      <section aria-label="Mapped lines" className="overflow-x-auto">
        <h3 className="font-medium">Mapped lines ({run.total_lines})</h3>
        {run.lines.length ? (
          <table className="text-sm" data-testid="mapped-lines">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Invoice</th>
                <th scope="col">Invoice date</th>
                <th scope="col">Line</th>
                <th scope="col">Costs</th>
              </tr>
            </thead>
            <tbody>
              {run.lines.map((l) => (
                <tr key={`${l.sheet ?? ""}${l.row}`}>
                  <td>{l.row}</td>
                  <td>{l.invoice.invoiceNumber}</td>
                  <td>{l.invoice.invoiceDate ?? ""}</td>
                  <td>
                    {Object.entries(l.detail)
                      .filter(([, v]) => v !== null && v !== "")
                      .map(([k, v]) => `${k}: ${String(v)}`)
                      .join("; ")}
                  </td>
                  <td>{l.costs.map((c) => `${c.description} ${c.amount.toFixed(2)}`).join("; ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
      {run.steps.map((s) => {
        const keys = keysOf(s.rows);
        return (
          <details key={s.step} className="overflow-x-auto" open={s.step === 0 || s === run.steps.at(-1)}>
            <summary className="cursor-pointer font-medium">{s.step === 0 ? "The file as read" : `After step ${s.step} ${s.name}`} ({s.rows.length} rows shown)</summary>
            <table className="text-sm">
              <thead className="text-left text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col">Row</th>
                  {keys.map((k) => (
                    <th key={k} scope="col">
                      {k}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {s.rows.map((r) => (
                  <tr key={`${r.sheet ?? ""}${r.row}`}>
                    <td>{r.row}</td>
                    {keys.map((k) => (
                      <td key={k}>{r.values[k] ?? ""}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        );
      })}
    </div>
  );
}
