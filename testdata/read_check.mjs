// read_check.mjs — reads Arrow IPC files (file or stream format) with npm's
// apache-arrow 21.2.0 and prints, as JSON, what it found: schema metadata,
// each field's type and metadata, and every column's values. Tensor columns
// (FixedSizeList, or Struct<data, shape>) print per row {values, shape} or
// null; other columns print their values. The Go tests use it to check that
// files written by tensorext read the same in a non-Go implementation.
//
// Usage: node read_check.mjs FILE...

import { tableFromIPC } from 'apache-arrow';
import { readFileSync } from 'node:fs';

const num = (v) => (typeof v === 'bigint' ? Number(v) : v);
const out = [];
for (const file of process.argv.slice(2)) {
  const t = tableFromIPC(readFileSync(file));
  const fields = t.schema.fields.map((f) => ({
    name: f.name, type: String(f.type), nullable: f.nullable, metadata: Object.fromEntries(f.metadata),
  }));
  const columns = {};
  for (const f of t.schema.fields) {
    const col = t.getChild(f.name);
    const rows = [];
    for (let i = 0; i < t.numRows; i++) {
      const v = col.get(i);
      if (v === null || v === undefined) { rows.push(null); continue; }
      if (f.type.typeId === 16 /* FixedSizeList */) rows.push({ values: Array.from(v, num) });
      else if (f.type.typeId === 13 /* Struct */) rows.push({ values: Array.from(v.data ?? [], num), shape: Array.from(v.shape ?? [], num) });
      else rows.push(num(v));
    }
    columns[f.name] = rows;
  }
  out.push({ file, num_rows: t.numRows, schema_metadata: Object.fromEntries(t.schema.metadata), fields, columns });
}
process.stdout.write(JSON.stringify(out));
