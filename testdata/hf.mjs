// What Hugging Face datasets writes, for the generators: the features JSON
// as Python's json.dumps spells it, and the Image feature's column.
import { Field, Struct, Binary, Utf8, makeData, vectorFromArray } from 'apache-arrow';

// pyJSON is JSON with Python's json.dumps separators, as datasets writes
// the features.
export const pyJSON = (v) => (v === null ? 'null'
  : Array.isArray(v) ? '[' + v.map(pyJSON).join(', ') + ']'
    : typeof v === 'object' ? '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ': ' + pyJSON(x)).join(', ') + '}'
      : JSON.stringify(v));

// validity is the null count and bitmap of rows (null rows are null).
export const validity = (rows) => {
  const bm = new Uint8Array(Math.ceil(rows.length / 8));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  return nulls ? { nullCount: nulls, nullBitmap: bm } : { nullCount: 0 };
};

// imageStruct is a column of datasets' Image feature,
// struct<bytes: binary, path: string>: rows of Uint8Array bytes or null,
// and each row's path (null by default).
export function imageStruct(rows, paths = rows.map(() => null)) {
  const type = new Struct([new Field('bytes', new Binary(), true), new Field('path', new Utf8(), true)]);
  const n = rows.length;
  const offsets = new Int32Array(n + 1);
  rows.forEach((r, i) => { offsets[i + 1] = offsets[i] + (r ? r.length : 0); });
  const data = new Uint8Array(offsets[n]);
  rows.forEach((r, i) => { if (r) data.set(r, offsets[i]); });
  const valid = validity(rows);
  const bytesD = makeData({ type: new Binary(), length: n, ...valid, valueOffsets: offsets, data });
  const pathD = vectorFromArray(paths, new Utf8()).data[0];
  return { type, data: makeData({ type, length: n, ...valid, children: [bytesD, pathD] }) };
}
