// gen_daft_lance.mjs — writes Arrow IPC files laid out as two producers
// outside Arrow write tensors, with npm `apache-arrow` 21.2.0:
//
//   dialects_daft.arrow  Daft's `daft.super_extension` columns (Tensor,
//                        FixedShapeTensor, Embedding, Image, FixedShapeImage,
//                        SparseTensor), each with the Daft dtype as JSON
//                        extension metadata. Layouts and JSON from
//                        Eventual-Inc/Daft @ 4c85eda1:
//                        src/daft-schema/src/dtype.rs (DataType::to_physical,
//                        to_arrow, to_json/DataTypePayload, serde's external
//                        enum tagging), src/daft-schema/src/field.rs
//                        (Field::to_arrow: every field nullable, the name and
//                        metadata keys), src/daft-schema/src/image_mode.rs
//                        (ImageMode numbers 1..10, channels, pixel types),
//                        src/daft-core/src/array/ops/image.rs (mode stored as
//                        its number).
//   lance_bfloat16.arrow arrow.fixed_shape_tensor columns whose value field is
//                        Lance's `lance.bfloat16` (FixedSizeBinary(2), empty
//                        extension metadata, bits little-endian), as
//                        lancedb/lance @ d2039d75 writes them:
//                        rust/lance-arrow/src/bfloat16.rs,
//                        rust/lance-core/src/datatypes.rs (the "item" field
//                        with name and empty metadata keys),
//                        python/python/tests/test_arrow.py
//                        (pa.fixed_shape_tensor(bfloat16, [3])).
//
// Regenerate:   cd testdata && npm ci && node gen_daft_lance.mjs
//
// Data are built with makeData() so that every buffer is ours. Null rows are
// null only in the top-level validity bitmap; their child slots are empty
// lists or zeros. The script reads both files back with tableFromIPC and
// throws on a mismatch, then writes daft_lance_expected.json from the values
// it wrote. Output is byte for byte the same on every run.

import {
  Field, Schema, Struct, LargeList, FixedSizeList, FixedSizeBinary, RecordBatch, Table,
  Int32, Uint8, Uint16, Uint32, Uint64, Float32, Float64,
  makeData, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import { writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const WRITER = 'apache-arrow-js 21.2.0 (gen_daft_lance.mjs)';
const DAFT = 'daft.super_extension';
const DAFT_VERSION = '0.7.24';

const prod = (a) => a.reduce((x, y) => x * y, 1);
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
function assertEq(got, want, msg) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`self-check failed: ${msg}\n  got:  ${g.slice(0, 300)}\n  want: ${w.slice(0, 300)}`);
}
const extMeta = (name, json) => new Map([['ARROW:extension:name', name], ['ARROW:extension:metadata', json]]);

// Daft's DataType::to_json: serde_json of DataTypePayload, keys in struct order.
const daftMeta = (datatype) => JSON.stringify({ datatype, daft_version: DAFT_VERSION, daft_build_type: 'release' });

function validity(rows) {
  const bm = new Uint8Array(Math.max(1, Math.ceil(rows.length / 8)));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  return { bm, nulls };
}

const TYPES = {
  uint8: { ctor: () => new Uint8(), arr: Uint8Array },
  uint16: { ctor: () => new Uint16(), arr: Uint16Array },
  int32: { ctor: () => new Int32(), arr: Int32Array },
  float32: { ctor: () => new Float32(), arr: Float32Array },
  float64: { ctor: () => new Float64(), arr: Float64Array },
};

const item = (t) => new Field('item', t, true);

// A LargeList's Data over rows of plain numbers (null rows are empty).
function largeList(elemType, TypedArray, lists) {
  const type = new LargeList(item(elemType));
  const offsets = new BigInt64Array(lists.length + 1);
  const flat = [];
  lists.forEach((l, i) => { for (const v of l ?? []) flat.push(v); offsets[i + 1] = BigInt(flat.length); });
  const data = TypedArray === BigUint64Array ? BigUint64Array.from(flat.map(BigInt)) : TypedArray.from(flat);
  const child = makeData({ type: elemType, length: flat.length, nullCount: 0, data });
  return makeData({ type, length: lists.length, nullCount: 0, valueOffsets: offsets, child });
}

function primitive(type, TypedArray, values) {
  return makeData({ type, length: values.length, nullCount: 0, data: TypedArray.from(values) });
}

// ------------------------------------------------------------------- Daft

// Tensor(T): Struct{data: LargeList<T>, shape: LargeList<uint64>}.
function daftTensor(name, vt, rows) {
  const dataT = new LargeList(item(TYPES[vt].ctor())), shapeT = new LargeList(item(new Uint64()));
  const type = new Struct([new Field('data', dataT, true), new Field('shape', shapeT, true)]);
  const dtype = { Tensor: vt === 'float32' ? 'Float32' : 'Float64' };
  return {
    name, dtype, field: new Field(name, type, true, extMeta(DAFT, daftMeta(dtype))),
    expected: { daft_type: dtype, value_type: vt, dim_names: null, rows },
    data() {
      const { bm, nulls } = validity(rows);
      const d = largeList(TYPES[vt].ctor(), TYPES[vt].arr, rows.map((r) => r && r.values));
      const s = largeList(new Uint64(), BigUint64Array, rows.map((r) => r && r.shape));
      return makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: bm, children: [d, s] });
    },
  };
}

// FixedShapeTensor / Embedding / FixedShapeImage: FixedSizeList<T>[n].
function daftFixed(name, vt, dtype, shape, rows, dimNames = null) {
  const n = prod(shape);
  const type = new FixedSizeList(n, item(TYPES[vt].ctor()));
  return {
    name, dtype, field: new Field(name, type, true, extMeta(DAFT, daftMeta(dtype))),
    expected: { daft_type: dtype, value_type: vt, dim_names: dimNames, rows: rows.map((r) => r && { shape, values: r }) },
    data() {
      const { bm, nulls } = validity(rows);
      const flat = rows.flatMap((r) => r ?? new Array(n).fill(0));
      const child = primitive(TYPES[vt].ctor(), TYPES[vt].arr, flat);
      return makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: bm, child });
    },
  };
}

// ImageMode (src/daft-schema/src/image_mode.rs): number, channels, pixel type.
const MODES = { L: [1, 1], LA: [2, 2], RGB: [3, 3], RGBA: [4, 4], L16: [5, 1], RGB16: [7, 3] };

// Image(mode): Struct{data: LargeList<T>, channel: u16, height: u32, width: u32, mode: u8}.
// rows: {mode, h, w} or null; pixels are (37*row + 11*k + 5) mod 256, HWC.
function daftImage(name, mode, rows) {
  const dataT = new LargeList(item(new Uint8()));
  const type = new Struct([
    new Field('data', dataT, true), new Field('channel', new Uint16(), true), new Field('height', new Uint32(), true),
    new Field('width', new Uint32(), true), new Field('mode', new Uint8(), true),
  ]);
  const dtype = { Image: mode };
  const full = rows.map((r, i) => r && { ...r, c: MODES[r.mode][1], values: range(r.h * r.w * MODES[r.mode][1], (k) => (37 * i + 11 * k + 5) % 256) });
  return {
    name, dtype, field: new Field(name, type, true, extMeta(DAFT, daftMeta(dtype))),
    expected: { daft_type: dtype, value_type: 'uint8', dim_names: ['height', 'width', 'channel'], rows: full.map((r) => r && { shape: [r.h, r.w, r.c], values: r.values }) },
    data() {
      const { bm, nulls } = validity(rows);
      const zero = (f) => full.map((r) => (r ? f(r) : 0));
      return makeData({
        type, length: rows.length, nullCount: nulls, nullBitmap: bm, children: [
          largeList(new Uint8(), Uint8Array, full.map((r) => r && r.values)),
          primitive(new Uint16(), Uint16Array, zero((r) => r.c)),
          primitive(new Uint32(), Uint32Array, zero((r) => r.h)),
          primitive(new Uint32(), Uint32Array, zero((r) => r.w)),
          primitive(new Uint8(), Uint8Array, zero((r) => MODES[r.mode][0])),
        ],
      });
    },
  };
}

// SparseTensor(T, false): Struct{values: LargeList<T>, indices: LargeList<u64>, shape: LargeList<u64>}.
function daftSparse(name) {
  const type = new Struct([
    new Field('values', new LargeList(item(new Float32())), true),
    new Field('indices', new LargeList(item(new Uint64())), true),
    new Field('shape', new LargeList(item(new Uint64())), true),
  ]);
  const dtype = { SparseTensor: ['Float32', false] };
  const rows = [
    { values: [1.5, -2], indices: [1, 4], shape: [2, 3] }, { values: [], indices: [], shape: [4] },
    { values: [7], indices: [0], shape: [1] }, { values: [], indices: [], shape: [0] }, { values: [3], indices: [2], shape: [3] },
  ];
  return {
    name, dtype, field: new Field(name, type, true, extMeta(DAFT, daftMeta(dtype))),
    expected: { daft_type: dtype, error: 'tensorview does not read Daft sparse tensors; shown as storage' },
    data() {
      return makeData({
        type, length: rows.length, nullCount: 0, children: [
          largeList(new Float32(), Float32Array, rows.map((r) => r.values)),
          largeList(new Uint64(), BigUint64Array, rows.map((r) => r.indices)),
          largeList(new Uint64(), BigUint64Array, rows.map((r) => r.shape)),
        ],
      });
    },
  };
}

const daftColumns = [
  daftTensor('tensor', 'float32', [
    { shape: [2, 3], values: [0.5, -1, 2, 3.25, 4, -5] },
    { shape: [4], values: [1, 2, 3, 4] },
    null,
    { shape: [1, 2, 2], values: [9, 8, 7, 6] },
    { shape: [0, 3], values: [] },
  ]),
  daftFixed('fixed_tensor', 'int32', { FixedShapeTensor: ['Int32', [2, 2, 3]] }, [2, 2, 3],
    [0, 1, null, 3, 4].map((r) => (r === null ? null : range(12, (k) => -100 * r + 7 * k)))),
  daftFixed('embedding', 'float64', { Embedding: ['Float64', 4] }, [4],
    [0, null, 2, 3, 4].map((r) => (r === null ? null : range(4, (k) => r + k / 8 - 0.25)))),
  daftImage('image', 'RGB', [{ mode: 'RGB', h: 2, w: 3 }, { mode: 'RGB', h: 1, w: 2 }, null, { mode: 'RGB', h: 3, w: 1 }, { mode: 'RGB', h: 1, w: 1 }]),
  daftImage('image_mixed', null, [{ mode: 'L', h: 2, w: 2 }, { mode: 'RGBA', h: 1, w: 2 }, { mode: 'LA', h: 1, w: 1 }, null, { mode: 'RGB', h: 2, w: 1 }]),
  daftFixed('fixed_image', 'uint8', { FixedShapeImage: ['RGB', 2, 2] }, [2, 2, 3],
    [0, 1, 2, null, 4].map((r) => (r === null ? null : range(12, (k) => (50 * r + 13 * k) % 256))), ['height', 'width', 'channel']),
  daftFixed('fixed_image16', 'uint16', { FixedShapeImage: ['L16', 2, 3] }, [2, 3, 1],
    [0, 1, 2, 3, null].map((r) => (r === null ? null : range(6, (k) => 10000 * r + 999 * k))), ['height', 'width', 'channel']),
  daftSparse('sparse'),
];
const DAFT_ROWS = 5;

// ------------------------------------------------------------------ Lance

// float32 -> bfloat16 bits, round to nearest even (as ml_dtypes and the
// `half` crate's bf16::from_f32 do); NaN stays a quiet NaN.
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function toBF16(x) {
  f32[0] = x;
  const b = u32[0];
  if ((b & 0x7fffffff) > 0x7f800000) return ((b >>> 16) | 0x40) & 0xffff;
  return ((b + 0x7fff + ((b >>> 16) & 1)) >>> 16) & 0xffff;
}
function fromBF16(bits) { u32[0] = bits << 16; return f32[0]; }
const text = (v) => (Object.is(v, -0) ? '-0' : String(v));

// Values chosen as numbers (rounded to bfloat16) or as bits (specials).
const B = (bits) => ({ bits });
const bf16Rows = [
  [1, -2.5, 1.1, 3.3895313892515355e38, 0.0078125, -0.001],
  [0, B(0x8000), B(0x0001), B(0x007f), B(0x0080), B(0x8001)],
  null,
  [Infinity, -Infinity, NaN, 65504, -65536, 1 / 3],
].map((r) => r && r.map((v) => (typeof v === 'number' ? toBF16(v) : v.bits)));

function lanceBF16(name, shape, rows, dimNames = null) {
  const n = prod(shape);
  const bf16 = new Field('item', new FixedSizeBinary(2), true, extMeta('lance.bfloat16', ''));
  const type = new FixedSizeList(n, bf16);
  const meta = { shape };
  if (dimNames) meta.dim_names = dimNames;
  return {
    name, field: new Field(name, type, true, extMeta('arrow.fixed_shape_tensor', JSON.stringify(meta))),
    expected: {
      shape, dim_names: dimNames,
      rows: rows.map((r) => r && { shape, bits: r, values: r.map((b) => text(fromBF16(b))) }),
    },
    data() {
      const { bm, nulls } = validity(rows);
      const flat = rows.flatMap((r) => r ?? new Array(n).fill(0));
      const bytes = new Uint8Array(2 * flat.length);
      flat.forEach((b, i) => { bytes[2 * i] = b & 0xff; bytes[2 * i + 1] = b >> 8; });
      const child = makeData({ type: bf16.type, length: flat.length, nullCount: 0, data: bytes });
      return makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: bm, child });
    },
  };
}

// bf16_image: [H, W, C] = [2, 2, 3], element k of a row k/16 (rows 0, 2) or
// 1 - k/16 (rows 1, 3), all exact in bfloat16.
const lanceColumns = [
  lanceBF16('bf16', [2, 3], bf16Rows),
  lanceBF16('bf16_image', [2, 2, 3], [0, 1, 0, 1].map((r) => range(12, (k) => toBF16(r === 0 ? k / 16 : 1 - k / 16)))),
];
const LANCE_ROWS = 4;

// ------------------------------------------------------------------ write

function write(file, columns, rows) {
  const schema = new Schema(columns.map((c) => c.field), new Map([['writer', WRITER]]));
  const children = columns.map((c) => c.data());
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children }));
  const bytes = tableToIPC(new Table([batch]), 'file');
  writeFileSync(join(OUT, file), bytes);
  return tableFromIPC(readFileSync(join(OUT, file)));
}

const daftTable = write('dialects_daft.arrow', daftColumns, DAFT_ROWS);
for (const c of daftColumns) {
  const f = daftTable.schema.fields.find((x) => x.name === c.name);
  assertEq(f.metadata.get('ARROW:extension:metadata'), daftMeta(c.dtype), `${c.name} metadata`);
}
// Read the Tensor column back: shapes and data.
const tv = daftTable.getChild('tensor');
daftColumns[0].expected.rows.forEach((r, i) => {
  const got = tv.get(i);
  if (r === null) { assertEq(got, null, 'tensor null row'); return; }
  assertEq([...got.shape].map(Number), r.shape, `tensor row ${i} shape`);
  assertEq([...got.data], r.values, `tensor row ${i} values`);
});

const lanceTable = write('lance_bfloat16.arrow', lanceColumns, LANCE_ROWS);
const lf = lanceTable.schema.fields[0];
assertEq(lf.type.children[0].metadata.get('ARROW:extension:name'), 'lance.bfloat16', 'child extension name');
const lv = lanceTable.getChild('bf16');
lanceColumns[0].expected.rows.forEach((r, i) => {
  const got = lv.get(i);
  if (r === null) { assertEq(got, null, 'bf16 null row'); return; }
  const bits = [...got].map((b) => b[0] | (b[1] << 8));
  assertEq(bits, r.bits, `bf16 row ${i} bits`);
});

const expected = {
  about: 'Written by gen_daft_lance.mjs from the values it wrote. Tensors: physical shape and row-major values per row; null for a null row. bfloat16 values: bits (uint16) and the exact float32 value as JavaScript prints it ("-0", "NaN", "Infinity").',
  'dialects_daft.arrow': Object.fromEntries(daftColumns.map((c) => [c.name, c.expected])),
  'lance_bfloat16.arrow': Object.fromEntries(lanceColumns.map((c) => [c.name, c.expected])),
};
writeFileSync(join(OUT, 'daft_lance_expected.json'), JSON.stringify(expected, null, 1) + '\n');
console.log('wrote dialects_daft.arrow, lance_bfloat16.arrow, daft_lance_expected.json');
