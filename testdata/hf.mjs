// What Hugging Face datasets writes, for the generators: the features JSON
// as Python's json.dumps spells it, the Image feature's column, and an
// image set's Parquet columns for hyparquet-writer.
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

// hfParquet is a Hugging Face image set as hyparquet-writer's
// parquetWriteBuffer takes it: the columns image struct<bytes: binary,
// path: string>, label int64 and caption string, all optional and without
// an offset index (datasets writes no page index), then the extra columns
// given, each as [its columnData entry, its Parquet schema elements...].
// rows holds the columns' values: image ({bytes, path} or null), label
// (BigInt or null), caption (string or null). It returns { columnData,
// schema }, the schema rooted at 'root'.
export function hfParquet({ image, label, caption }, extra = []) {
  const columnData = [
    { name: 'image', data: image, offsetIndex: false },
    { name: 'label', data: label, offsetIndex: false },
    { name: 'caption', data: caption, offsetIndex: false },
    ...extra.map(([col]) => col),
  ];
  const schema = [
    { name: 'root', num_children: 3 + extra.length },
    { name: 'image', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
    { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'label', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'caption', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ...extra.flatMap(([, ...elements]) => elements),
  ];
  return { columnData, schema };
}
