/**
 * Writing an imported file's lines and cost lines (import.server.ts), a chunk at a time inside the
 * file's transaction. On PostgreSQL by COPY FROM STDIN, its cheapest bulk write: the line ids are
 * taken from the sequence first, so the cost lines can name their line without a RETURNING and a
 * join. PGlite has no COPY from a client stream: one INSERT ... FROM json_populate_recordset per
 * chunk, the cost lines joined to the new ids in the same statement (bench/invoice-import.ts).
 */
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { copyClient, type CopyClient } from "../../../db/copy.server";
import type { MappedLine } from "./templates/map-fields";

/** A line ready to write: its invoice's id (the invoice may still be being made) and its number in the file. */
export interface PendingLine {
  invoiceId: Promise<number>;
  line: MappedLine;
  n: number;
}

export interface LineWriter {
  /** lines per write */
  chunk: number;
  /**
   * Queues `lines`; answers once the caller may go on reading (the database is at most a chunk or
   * two behind; PostgreSQL: the COPYs are sent and the database works on them meanwhile), or with
   * the failure of a write before. `last`: answers once everything is sent.
   */
  write(lines: PendingLine[], last: boolean): Promise<void>;
  /** runs another statement of the transaction after the writes queued so far, never inside one */
  exclusive<T>(fn: () => PromiseLike<T>): Promise<T>;
}

export const DETAIL_COLUMNS = [
  "consignment_number", "account_number", "parent_account_number", "payer", "reference", "service_description",
  "sender_name", "sender_locality", "sender_postcode", "sender_region", "sender_zone", "sender_country",
  "receiver_name", "receiver_locality", "receiver_postcode", "receiver_region", "receiver_zone",
  "despatch_date", "dangerous_goods", "total_quantity", "total_weight_in_uom", "total_charge_weight", "total_volume_in_uom_cubed", "total_cost",
] as const;

/** The two statements a chunk needs, on whichever database `tx` runs; `rows`: at least the lines to come, when known. */
export function lineWriter(tx: DbOrTx, carrierId: number, rows?: number): LineWriter {
  const client = copyClient(tx);
  return client ? copyWriter(client, carrierId, rows) : jsonWriter(tx, carrierId);
}

/**
 * Statements in the order they are asked for, one at a time; one that fails does not stop those
 * after it (they fail in the aborted transaction), and `cause` names the first refusal.
 */
function serial(cause: (e: unknown) => unknown = (e) => e) {
  let lock: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => PromiseLike<T>): Promise<T> => {
    const run = lock.then(fn).then(
      (v) => v,
      (e: unknown) => Promise.reject(cause(e)),
    );
    lock = run.catch(() => {});
    return run;
  };
}

/** The chunk's invoices' ids, each asked for once. */
async function invoiceIds(lines: PendingLine[]): Promise<number[]> {
  const distinct = [...new Set(lines.map((l) => l.invoiceId))];
  const ids = new Map(await Promise.all(distinct.map(async (p) => [p, await p] as const)));
  return lines.map((l) => ids.get(l.invoiceId)!);
}

export const JSON_CHUNK = 2000;

function jsonWriter(tx: DbOrTx, carrierId: number): LineWriter {
  const exclusive = serial();
  return {
    chunk: JSON_CHUNK,
    exclusive,
    // one statement at a time, the next chunk read meanwhile
    write: (lines) =>
      exclusive(async () => {
        const invoice = await invoiceIds(lines);
        const details = lines.map(({ line, n }, k) => ({ ...line.detail, invoice_id: invoice[k], line_number: n, carrier_id: carrierId, dangerous_goods: line.detail.dangerous_goods ?? false, total_cost: line.detail.total_cost ?? 0 }));
        const costs = lines.flatMap(({ line, n }, k) => line.costs.map((c) => ({ invoice_id: invoice[k], line_number: n, category: c.category, description: c.description, amount: c.amount })));
        const cols = sql.raw(DETAIL_COLUMNS.join(", "));
        await tx.execute(sql`
          with d as (
            insert into invoice_details (invoice_id, line_number, carrier_id, state, ${cols})
            select invoice_id, line_number, carrier_id, 'unallocated', ${cols}
            from json_populate_recordset(null::invoice_details, ${JSON.stringify(details)}::json)
            returning id, invoice_id, line_number
          )
          insert into invoice_costs (invoice_detail_id, category, description, amount)
          select d.id, c.category, c.description, c.amount
          from json_to_recordset(${JSON.stringify(costs)}::json) as c(invoice_id int, line_number int, category text, description text, amount numeric)
          join d on d.invoice_id = c.invoice_id and d.line_number = c.line_number`);
      }),
  };
}

type CopyValue = string | number | boolean | null | undefined;
const SPECIAL = /[\\\t\n\r]/;
const SPECIALS = /[\\\t\n\r]/g;
const ESCAPED: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
/** A value in COPY's text format: \N for null, backslash escapes for the separators. */
export function copyValue(v: CopyValue): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "boolean") return v ? "t" : "f";
  if (typeof v === "number") return String(v);
  return SPECIAL.test(v) ? v.replace(SPECIALS, (c) => ESCAPED[c]!) : v;
}

const COPY_DETAILS = `copy invoice_details (id, invoice_id, line_number, carrier_id, state, ${DETAIL_COLUMNS.join(", ")}) from stdin`;
const COPY_COSTS = "copy invoice_costs (invoice_detail_id, category, description, amount) from stdin";
/** n ids from the sequence, answered as runs (lo, hi): a few rows, where 50,000 would keep the reader's thread busy */
const IDS = `with ids as (select nextval(s) as id from (select pg_get_serial_sequence('invoice_details', 'id') as s) q, generate_series(1, $1::int))
  select min(id)::int as lo, max(id)::int as hi from (select id, id - row_number() over (order by id) as run from ids) r group by run order by lo`;

/** chunks queued ahead of the database before the reader waits */
const AHEAD = 2;
/** lines per COPY pair: a small first chunk, so the database starts while the file is still being read */
export const COPY_CHUNKS = { first: 1000, then: 10_000 };
/** ids taken at a file's start at most (a huge file takes the rest a chunk at a time) */
const MOST_IDS_AHEAD = 100_000;

/**
 * Per chunk, a COPY of the lines and a COPY of their cost lines, with line ids taken from the
 * sequence beforehand (the whole file's, in two queries, when its rows were counted), so the cost lines
 * name their line without a RETURNING. The reader runs up to AHEAD chunks ahead of the database,
 * which has a core of its own; that is what makes COPY pay here (made on the one thread with the
 * reader waiting on each chunk, it was slower than the JSON statement: docs/decisions/019).
 *
 * postgres.js pipelines statements, and one sent while a COPY's data is still open would break the
 * connection, so every statement of the transaction goes through `exclusive`. A COPY's turn ends
 * once its end is on the wire, not when the server has checked its rows: postgres.js never settles
 * a COPY the server refuses after that, which shows as the next statement's "transaction is
 * aborted"; the refusal itself, caught on its way, is what is thrown.
 */
function copyWriter(client: CopyClient, carrierId: number, rows?: number): LineWriter {
  const CHUNK = COPY_CHUNKS.then;
  const FIRST_CHUNK = COPY_CHUNKS.first;
  let failure: unknown = null;
  const exclusive = serial((e) => failure ?? e);
  const takeIds = async (n: number) => {
    const ids: number[] = [];
    for (const { lo, hi } of (await client.unsafe(IDS, [n])) as { lo: number; hi: number }[]) for (let id = lo; id <= hi; id++) ids.push(id);
    return ids;
  };
  // the first chunk's ids asked for before any COPY is open, the rest behind the first chunk's
  // COPYs (50,000 nextval are time the database would otherwise spend before the first COPY);
  // a failure is met by the write that needs them
  let ids: number[] = [];
  let used = 0;
  let more: Promise<number[]> | null = rows ? takeIds(Math.min(rows, FIRST_CHUNK)) : null;
  more?.catch(() => {});
  let ahead = rows ? Math.min(rows - FIRST_CHUNK, MOST_IDS_AHEAD) : 0;
  /** inside `exclusive` only */
  const idsFor = async (n: number) => {
    if (ids.length - used < n && more) {
      ids = ids.slice(used).concat(await more);
      used = 0;
      more = null;
    }
    if (ids.length - used < n) {
      ids = ids.slice(used).concat(await takeIds(Math.max(n, CHUNK)));
      used = 0;
    }
    used += n;
    return ids.slice(used - n, used);
  };
  const send = async (statement: string, text: string) => {
    const query = client.unsafe(statement);
    const reject = query.reject.bind(query);
    query.reject = (e) => {
      failure ??= e;
      reject(e);
    };
    const stream = await query.writable();
    // postgres.js's destroy sends CopyFail, and the stream destroys itself once the COPY is done:
    // by then the next COPY may be open, and would be the one failed. The server needs no
    // CopyFail when it refused the rows itself, and nothing here destroys a stream.
    stream._destroy = (e, done) => done(e);
    await new Promise<void>((resolve) => {
      // postgres.js forgets the stream (so takes the next statement) as it sends the COPY's end
      const final = stream._final!.bind(stream);
      stream._final = (done) => {
        final(done);
        resolve();
      };
      stream.on("error", (e) => (failure ??= e));
      stream.on("close", resolve);
      stream.end(text);
    });
  };
  const queued: Promise<void>[] = [];
  let writes = 0;
  return {
    get chunk() {
      return writes ? CHUNK : FIRST_CHUNK;
    },
    exclusive,
    async write(lines, last) {
      writes += 1;
      const sent = exclusive(async () => {
        const ids = await idsFor(lines.length);
        const invoice = await invoiceIds(lines);
        let details = "";
        let costs = "";
        const head = `\t${carrierId}\tunallocated`;
        lines.forEach(({ line, n }, k) => {
          const id = ids[k]!;
          const d = line.detail;
          details += `${id}\t${invoice[k]}\t${n}${head}`;
          for (const c of DETAIL_COLUMNS) details += `\t${copyValue(c === "dangerous_goods" ? (d.dangerous_goods ?? false) : c === "total_cost" ? (d.total_cost ?? 0) : d[c])}`;
          details += "\n";
          for (const c of line.costs) costs += `${id}\t${c.category}\t${copyValue(c.description)}\t${c.amount}\n`;
        });
        await send(COPY_DETAILS, details);
        if (costs) await send(COPY_COSTS, costs);
        if (ahead > 0 && !more) {
          more = takeIds(ahead);
          more.catch(() => {});
          ahead = 0;
        }
      });
      sent.catch(() => {});
      queued.push(sent);
      while (queued.length > (last ? 0 : AHEAD)) await queued.shift();
    },
  };
}
