// Conformance of tensorview's Parquet engine (web/parquet-engine.js:
// hyparquet bridged to Arrow IPC by flechette) with parquet-wasm (arrow-rs,
// the engine it replaces): every file given is opened twice by the worker
// (web/parquet-worker.js, run by parquet_worker_node.mjs), once as the page
// opens it and once with engine "parquet-wasm", as a file by URL (the
// worker asks for byte ranges); then both read every row group whole, a
// few windows of rows and each column alone, and the answers are decoded
// with npm's apache-arrow (a third implementation) and compared: the
// footer the page shows, the schema (names, types, nullability, field and
// schema metadata, extension types included) and every value.
//
// Usage: node parquet_conformance.mjs WEB_DIR FILE...
//
// It prints JSON: {files: [{file, engine, declined, checks, mismatches,
// errors, ranges}]}: engine is what the page's worker read the file with
// (hyparquet, or parquet-wasm when declined says why), checks counts the
// comparisons made, mismatches lists the differences (none expected),
// errors the requests that failed, as {what, hyparquet, wasm}; ranges are
// the byte ranges the page's worker asked for to open the file.

import { tableFromIPC, Type } from 'apache-arrow';
import { readFileSync } from 'node:fs';
import { parquetWorker } from './parquet_worker_node.mjs';

const [web, ...files] = process.argv.slice(2);

const hex = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('hex');

// norm turns an apache-arrow value into plain JSON, exactly.
function norm(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'bigint': return `${v}n`;
    case 'number': return Number.isNaN(v) ? 'NaN' : Object.is(v, -0) ? '-0' : v;
    case 'string': case 'boolean': return v;
  }
  if (v instanceof Uint8Array) return `0x${hex(v)}`;
  if (ArrayBuffer.isView(v)) return Array.from(v, norm);
  if (v instanceof Date) return `date ${v.getTime()}`;
  if (typeof v.toArray === 'function' && 'type' in v) return Array.from(v, norm); // a Vector
  if (typeof v.toJSON === 'function') {
    const o = v.toJSON();
    if (o instanceof Map) return [...o].map(([k, x]) => [norm(k), norm(x)]);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, norm(x)]));
  }
  if (Array.isArray(v)) return v.map(norm);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
}

function fieldJSON(f) {
  return {
    name: f.name,
    type: String(f.type),
    typeId: f.type.typeId,
    nullable: f.nullable,
    metadata: [...(f.metadata ?? new Map())].sort(),
    children: (f.type.children ?? []).map(fieldJSON),
  };
}

function schemaJSON(s) {
  return { fields: s.fields.map(fieldJSON), metadata: [...(s.metadata ?? new Map())].sort() };
}

// slots are the bytes apache-arrow's values of fixed-width types hold
// (timestamps, dates, times, durations, decimals, float16, fixed-size
// binaries: their values as apache-arrow gives them round nanoseconds to
// milliseconds and misprint Decimal256) for rows [from, to) of data, null
// where the row is null, through lists and structs, as hex.
const fixedWidth = new Set([Type.Timestamp, Type.Date, Type.Time, Type.Duration, Type.Decimal, Type.Float, Type.FixedSizeBinary]);
function slots(data, from, to, out) {
  for (let i = from; i < to; i++) {
    if (!data.getValid(i)) {
      out.push(null);
      continue;
    }
    const j = data.offset + i;
    if (fixedWidth.has(data.typeId)) {
      const v = data.values;
      const width = v.BYTES_PER_ELEMENT * data.stride;
      out.push(hex(new Uint8Array(v.buffer, v.byteOffset + j * width, width)));
    } else if (data.typeId === Type.List || data.typeId === Type.LargeList) {
      slots(data.children[0], Number(data.valueOffsets[j]), Number(data.valueOffsets[j + 1]), out);
    } else if (data.typeId === Type.FixedSizeList) {
      slots(data.children[0], j * data.type.listSize, (j + 1) * data.type.listSize, out);
    } else if (data.typeId === Type.Struct) {
      for (const c of data.children) slots(c, j, j + 1, out);
    }
  }
  return out;
}

function tableJSON(ipc) {
  const t = tableFromIPC(ipc);
  const cols = {};
  for (const f of t.schema.fields) {
    const c = t.getChild(f.name);
    cols[f.name] = Array.from({ length: t.numRows }, (_, i) => norm(c.get(i)));
    const raw = [];
    for (const d of c.data) slots(d, 0, d.length, raw);
    if (raw.length) cols[`${f.name} (slots)`] = [raw];
  }
  return { schema: schemaJSON(t.schema), rows: t.numRows, cols };
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const out = { files: [] };
for (const path of files) {
  const data = new Uint8Array(readFileSync(path));
  const res = { file: path, engine: '', declined: '', checks: 0, mismatches: [], errors: [], ranges: [] };
  out.files.push(res);
  let hy, pw;
  const keepBytes = 64 << 20;
  // start (re)starts both workers, as the page does after a trap.
  const start = async () => {
    await hy?.close();
    await pw?.close();
    hy = parquetWorker(web);
    pw = parquetWorker(web);
    return Promise.all([
      hy.request({ op: 'open', data, keepBytes }),
      pw.request({ op: 'open', data, keepBytes, engine: 'parquet-wasm' }),
    ]);
  };
  try {
    const [a, b] = await start();
    res.ranges = hy.ranges.slice();
    if (a.error || b.error) {
      res.errors.push({ what: 'open', hyparquet: a.error ?? '', wasm: b.error ?? '' });
      continue;
    }
    res.engine = a.engine;
    res.declined = a.declined ?? '';
    const mismatch = (what, got, want) => {
      res.checks++;
      if (!same(got, want)) res.mismatches.push({ what, hyparquet: JSON.stringify(got).slice(0, 600), wasm: JSON.stringify(want).slice(0, 600) });
    };
    // parquet-wasm lists the key-value metadata in its own order.
    const sortedKV = (m) => ({ ...m, keyValue: [...m.keyValue].sort() });
    mismatch('footer', sortedKV(a.meta), sortedKV(b.meta));
    const schema = schemaJSON(tableFromIPC(a.schema).schema);
    mismatch('schema', schema, schemaJSON(tableFromIPC(b.schema).schema));
    const names = schema.fields.map((f) => f.name);
    const reads = [];
    b.meta.rowGroups.forEach((g, i) => {
      reads.push({ rowGroup: i, offset: 0, limit: g.rows, columns: null });
      if (g.rows > 2) {
        reads.push({ rowGroup: i, offset: 1, limit: 2, columns: null });
        reads.push({ rowGroup: i, offset: g.rows - 1, limit: 5, columns: null });
      }
      if (i === 0 && names.length > 1) {
        for (const n of names) reads.push({ rowGroup: i, offset: 0, limit: g.rows, columns: [n] });
        reads.push({ rowGroup: i, offset: 0, limit: g.rows, columns: [names[names.length - 1], names[0]].reverse() });
      }
    });
    for (const r of reads) {
      const what = `read ${JSON.stringify(r)}`;
      const [x, y] = await Promise.all([hy.request({ op: 'read', ...r }), pw.request({ op: 'read', ...r })]);
      if (x.error || y.error) {
        res.errors.push({ what, hyparquet: x.error ?? '', wasm: y.error ?? '', trapped: !!(x.trapped || y.trapped) });
        if (x.trapped || y.trapped || x.crashed || y.crashed) await start(); // that worker is unusable
        continue;
      }
      const tx = tableJSON(x.ipc);
      const ty = tableJSON(y.ipc);
      mismatch(`${what}: engine`, x.engine, a.engine);
      mismatch(`${what}: schema`, tx.schema.fields, ty.schema.fields);
      mismatch(`${what}: rows`, tx.rows, ty.rows);
      for (const n of Object.keys(ty.cols)) {
        for (let i = 0; i < ty.cols[n].length; i++) mismatch(`${what}: ${n} row ${i}`, tx.cols[n]?.[i], ty.cols[n][i]);
      }
    }
  } finally {
    await hy.close();
    await pw.close();
  }
}
process.stdout.write(JSON.stringify(out, null, 1));
