// gen_dialects.mjs — Arrow IPC files in the tensor "dialects" other
// producers write, for app/dialect's tests, written with npm apache-arrow
// 21.2.0 in each producer's exact layout and metadata:
//
//   dialects_nested.arrow  plain nested FixedSizeList (Polars Array, DuckDB
//                          ARRAY, pyarrow pa.list_(t, n)), plain List and
//                          LargeList of numbers; two record batches.
//   dialects_ray.arrow     Ray Data: ray.data.arrow_tensor (List<T>),
//                          ray.data.arrow_tensor_v2 (LargeList<T>),
//                          ray.data.arrow_variable_shaped_tensor
//                          (Struct<data: LargeList<T>, shape: List<int64>>),
//                          metadata as JSON or as cloudpickle bytes
//                          (ray-project/ray python/ray/data/_internal/
//                          tensor_extensions/arrow.py @ 18a29212), plus two
//                          hostile pickles that must never be run.
//   dialects_hf.arrow      Hugging Face datasets Array2D..Array5D
//                          (datasets.features.features.Array<N>DExtensionType,
//                          N levels of List, metadata json.dumps((shape, dtype)),
//                          huggingface/datasets src/datasets/features/
//                          features.py @ b7cb10b0), with the schema's
//                          "huggingface" features metadata.
//
// dialects_expected.json records, from the values written here, what a
// reader must find: per column the dialect (or that none applies, or a
// substring of the refusal), and per row the physical shape and row-major
// values, null for a null row, or a substring of the row's error.
//
// Pickled metadata: apache-arrow JS keeps metadata as JS strings and would
// re-encode bytes >= 0x80 as UTF-8, so each pickle is written as an ASCII
// placeholder of the same length, then the placeholder's bytes in the file
// are replaced by the pickle's (pyarrow writes the bytes as they are). The
// pickles are the bytes cloudpickle 2.1.0 on CPython 3.11 gives:
//   cloudpickle.dumps((2, 2))       80 05 95 07 00.. 4b 02 4b 02 86 94 2e
//   cloudpickle.dumps((1, 2, 2, 1)) 80 05 95 0c 00.. 28 4b 01 4b 02 4b 02 4b 01 74 94 2e
//   cloudpickle.dumps(3)            80 05 4b 03 2e
// and the hostile ones pickle.dumps(E(), protocol=5 and 2) of a class whose
// __reduce__ returns (os.system, ('echo pwned',)): STACK_GLOBAL/GLOBAL then
// REDUCE. Nothing here or in the Go tests ever unpickles them.
//
// Regenerate:   cd testdata && npm ci && node gen_dialects.mjs

import {
  Field, Schema, Struct, List, LargeList, FixedSizeList, RecordBatch, Table,
  Bool, Int16, Int32, Int64, Uint8, Uint16, Float32, Float64, Utf8,
  makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import { writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const WRITER = 'apache-arrow-js 21.2.0 (gen_dialects.mjs)';

function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
const prod = (a) => a.reduce((x, y) => x * y, 1);
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));

// ------------------------------------------------------------ leaf types

const LEAF = {
  bool: { ctor: () => new Bool() },
  int16: { ctor: () => new Int16(), arr: Int16Array },
  int32: { ctor: () => new Int32(), arr: Int32Array },
  int64: { ctor: () => new Int64(), arr: BigInt64Array, big: true },
  uint8: { ctor: () => new Uint8(), arr: Uint8Array },
  uint16: { ctor: () => new Uint16(), arr: Uint16Array },
  float32: { ctor: () => new Float32(), arr: Float32Array },
  float64: { ctor: () => new Float64(), arr: Float64Array },
};
const item = (t) => new Field('item', t, true);
const leaf = (name) => LEAF[name].ctor();
const fsl = (n, t) => new FixedSizeList(n, item(t));
const list = (t) => new List(item(t));
const largeList = (t) => new LargeList(item(t));

// nest(shape, flat) turns row-major values into nested JS arrays.
function nest(shape, flat) {
  if (shape.length === 0) return flat[0];
  if (shape.length === 1) return flat.slice();
  const inner = prod(shape.slice(1));
  return range(shape[0], (i) => nest(shape.slice(1), flat.slice(i * inner, (i + 1) * inner)));
}

function bitmap(vals) {
  const bm = new Uint8Array(Math.max(1, Math.ceil(vals.length / 8)));
  let nulls = 0;
  vals.forEach((v, i) => { if (v === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  return { bm, nulls };
}

// zero(type) is the filler a null FixedSizeList slot's children hold.
function zero(type) {
  if (type instanceof FixedSizeList) return range(type.listSize, () => zero(type.children[0].type));
  if (type instanceof List || type instanceof LargeList) return [];
  if (type instanceof Struct) return Object.fromEntries(type.children.map((f) => [f.name, zero(f.type)]));
  return 0;
}

// build(type, vals) makes the Data of vals (nested JS values; null = null
// at that level) for type.
function build(type, vals) {
  const { bm, nulls } = bitmap(vals);
  const validity = nulls ? { nullCount: nulls, nullBitmap: bm } : { nullCount: 0 };
  if (type instanceof FixedSizeList) {
    const n = type.listSize;
    const kids = [];
    for (const v of vals) {
      const row = v === null ? zero(type) : v;
      assert(row.length === n, `FixedSizeList[${n}] row of ${row.length}`);
      kids.push(...row);
    }
    return makeData({ type, length: vals.length, ...validity, child: build(type.children[0].type, kids) });
  }
  if (type instanceof List || type instanceof LargeList) {
    const large = type instanceof LargeList;
    const offsets = large ? new BigInt64Array(vals.length + 1) : new Int32Array(vals.length + 1);
    const kids = [];
    vals.forEach((v, i) => {
      if (v !== null) kids.push(...v);
      offsets[i + 1] = large ? BigInt(kids.length) : kids.length;
    });
    return makeData({ type, length: vals.length, ...validity, valueOffsets: offsets, child: build(type.children[0].type, kids) });
  }
  if (type instanceof Struct) {
    const children = type.children.map((f) => build(f.type, vals.map((v) => (v === null ? zero(f.type) : v[f.name]))));
    return makeData({ type, length: vals.length, ...validity, children });
  }
  if (type instanceof Utf8) return vectorFromArray(vals, type).data[0];
  if (type instanceof Bool) {
    const data = new Uint8Array(Math.max(1, Math.ceil(vals.length / 8)));
    vals.forEach((v, i) => { if (v) data[i >> 3] |= 1 << (i & 7); });
    return makeData({ type, length: vals.length, ...validity, data });
  }
  const spec = Object.values(LEAF).find((l) => l.arr && type.constructor === l.ctor().constructor && type.bitWidth === l.ctor().bitWidth && type.isSigned === l.ctor().isSigned && type.precision === l.ctor().precision);
  assert(spec, `no leaf for ${type}`);
  const data = spec.arr.from(vals.map((v) => (v === null ? 0 : spec.big ? BigInt(v) : v)));
  return makeData({ type, length: vals.length, ...validity, data });
}

// ------------------------------------------------------------ columns
//
// A column: { name, type, ext: [extension name, metadata] or undefined,
// raw: storage values per row, expect: { dialect | none | error, shape,
// ndim, rows } }. expect.rows: {shape, values} (row-major; null elements as
// null), null (a null row), or {error: substring}.

const T = (shape, values) => ({ shape, values });
const E = (error) => ({ error });
const seq = (n, f) => range(n, f);

// Pickle placeholders, replaced by the pickle bytes after writing.
const PICKLES = [];
function pickle(hex) {
  const bytes = Buffer.from(hex, 'hex');
  const ph = (`~P${PICKLES.length}` + '~'.repeat(bytes.length)).slice(0, bytes.length);
  assert(bytes.length >= 5 && PICKLES.length < 10, 'placeholder');
  PICKLES.push({ ph, bytes });
  return ph;
}

// ---- dialects_nested.arrow

const f23 = (k) => seq(6, (i) => k * 10 + i * 0.5);
const nestedCols = [
  { name: 'id', type: new Int32(), raw: [0, 1, 2, 3, 4], expect: { none: true } },
  {
    name: 'fsl_f32_2x3', type: fsl(2, fsl(3, leaf('float32'))),
    raw: [nest([2, 3], f23(1)), null, [[1, 2, 3], null], nest([2, 3], f23(3)), nest([2, 3], f23(4))],
    expect: { dialect: 'nested FixedSizeList', shape: [2, 3], ndim: 2,
      rows: [T([2, 3], f23(1)), null, E('inner list at depth 1'), T([2, 3], f23(3)), T([2, 3], f23(4))] },
  },
  {
    name: 'fsl_i16_emb4', type: fsl(4, leaf('int16')),
    raw: [[1, -2, 3, -4], [100, null, -300, 32767], [0, 0, 0, 0], null, [-32768, 5, 6, 7]],
    expect: { dialect: 'nested FixedSizeList', shape: [4], ndim: 1,
      rows: [T([4], [1, -2, 3, -4]), T([4], [100, null, -300, 32767]), T([4], [0, 0, 0, 0]), null, T([4], [-32768, 5, 6, 7])] },
  },
  {
    name: 'fsl_u8_2x2x2', type: fsl(2, fsl(2, fsl(2, leaf('uint8')))),
    raw: seq(5, (k) => nest([2, 2, 2], seq(8, (i) => (k * 50 + i * 7) % 256))),
    expect: { dialect: 'nested FixedSizeList', shape: [2, 2, 2], ndim: 3,
      rows: seq(5, (k) => T([2, 2, 2], seq(8, (i) => (k * 50 + i * 7) % 256))) },
  },
  {
    name: 'fsl_bool_3', type: fsl(3, new Bool()),
    raw: [[true, false, true], [false, false, false], [true, true, true], [false, true, false], null],
    expect: { dialect: 'nested FixedSizeList', shape: [3], ndim: 1,
      rows: [T([3], [1, 0, 1]), T([3], [0, 0, 0]), T([3], [1, 1, 1]), T([3], [0, 1, 0]), null] },
  },
  {
    name: 'list_f64', type: list(leaf('float64')),
    raw: [[0.25, -1.5, 3], [], null, [1e300, -1e-300, 0, 2, 4], [7]],
    expect: { dialect: 'plain list', shape: null, ndim: 1,
      rows: [T([3], [0.25, -1.5, 3]), T([0], []), null, T([5], [1e300, -1e-300, 0, 2, 4]), T([1], [7])] },
  },
  {
    name: 'largelist_i32', type: largeList(leaf('int32')),
    raw: [[1], [2, 3], [4, 5, 6], null, [-2147483648, 2147483647]],
    expect: { dialect: 'plain list', shape: null, ndim: 1,
      rows: [T([1], [1]), T([2], [2, 3]), T([3], [4, 5, 6]), null, T([2], [-2147483648, 2147483647])] },
  },
  { name: 'list_utf8', type: list(new Utf8()), raw: [['a'], [], ['b', 'c'], null, ['d']], expect: { none: true } },
  { name: 'fsl_of_list', type: fsl(2, list(leaf('float32'))), raw: [[[1], [2, 3]], [[], []], [[4], [5]], [[6], []], [[7], [8]]], expect: { none: true } },
];

// ---- dialects_ray.arrow

const RAY_T = 'ray.data.arrow_tensor', RAY_T2 = 'ray.data.arrow_tensor_v2', RAY_V = 'ray.data.arrow_variable_shaped_tensor';
const rayVar = (t) => new Struct([new Field('data', largeList(t), true), new Field('shape', list(new Int64()), true)]);
const HOSTILE5 = '80059525000000000000008c05706f736978948c0673797374656d9493948c0a6563686f2070776e656494859452942e';
const HOSTILE2 = '800263706f7369780a73797374656d0a7100580a0000006563686f2070776e656471018571025271032e';
const rayCols = [
  {
    name: 'ray_json_f32', type: list(leaf('float32')), ext: [RAY_T, '[2, 3]'],
    raw: [f23(1), f23(2), null, f23(5)],
    expect: { dialect: `Ray tensor (${RAY_T})`, shape: [2, 3], ndim: 2, rows: [T([2, 3], f23(1)), T([2, 3], f23(2)), null, T([2, 3], f23(5))] },
  },
  {
    name: 'ray_pickle_i64', type: largeList(leaf('int64')), ext: [RAY_T2, pickle('80059507000000000000004b024b0286942e')],
    raw: [[1, 2, 3, 4], [-5, 6, -7, 8], [9007199254740991, 0, -9007199254740991, 1], [0, 0, 0, 0]],
    expect: { dialect: `Ray tensor (${RAY_T2})`, shape: [2, 2], ndim: 2,
      rows: [T([2, 2], [1, 2, 3, 4]), T([2, 2], [-5, 6, -7, 8]), T([2, 2], [9007199254740991, 0, -9007199254740991, 1]), T([2, 2], [0, 0, 0, 0])] },
  },
  {
    name: 'ray_pickle_u8_4d', type: largeList(leaf('uint8')), ext: [RAY_T2, pickle('8005950c00000000000000284b014b024b024b0174942e')],
    raw: seq(4, (k) => seq(4, (i) => k * 4 + i)),
    expect: { dialect: `Ray tensor (${RAY_T2})`, shape: [1, 2, 2, 1], ndim: 4, rows: seq(4, (k) => T([1, 2, 2, 1], seq(4, (i) => k * 4 + i))) },
  },
  {
    name: 'ray_scalar_i32', type: list(leaf('int32')), ext: [RAY_T, '[]'],
    raw: [[7], [-8], [9], [10]],
    expect: { dialect: `Ray tensor (${RAY_T})`, shape: [], ndim: 0, rows: [T([], [7]), T([], [-8]), T([], [9]), T([], [10])] },
  },
  {
    name: 'ray_bad_length', type: list(leaf('float32')), ext: [RAY_T, '[2, 2]'],
    raw: [[1, 2, 3, 4], [1, 2, 3], [], [5, 6, 7, 8]],
    expect: { dialect: `Ray tensor (${RAY_T})`, shape: [2, 2], ndim: 2,
      rows: [T([2, 2], [1, 2, 3, 4]), E('the row has 3 elements, shape [2,2] needs 4'), E('the row has 0 elements, shape [2,2] needs 4'), T([2, 2], [5, 6, 7, 8])] },
  },
  {
    name: 'ray_var_json_f64', type: rayVar(leaf('float64')), ext: [RAY_V, '2'],
    raw: [{ data: [1.5, 2.5], shape: [1, 2] }, { data: [3, 4, 5], shape: [3, 1] }, null, { data: [], shape: [0, 4] }],
    expect: { dialect: `Ray variable-shaped tensor (${RAY_V})`, shape: null, ndim: 2,
      rows: [T([1, 2], [1.5, 2.5]), T([3, 1], [3, 4, 5]), null, T([0, 4], [])] },
  },
  {
    name: 'ray_var_pickle_u16', type: rayVar(leaf('uint16')), ext: [RAY_V, pickle('80054b032e')],
    raw: [{ data: [1, 2, 3, 4], shape: [1, 2, 2] }, { data: [65535, 0], shape: [2, 1, 1] }, { data: [1, 2, 3], shape: [3, 1] }, { data: [1, 2], shape: [1, 1, 3] }],
    expect: { dialect: `Ray variable-shaped tensor (${RAY_V})`, shape: null, ndim: 3,
      rows: [T([1, 2, 2], [1, 2, 3, 4]), T([2, 1, 1], [65535, 0]), E('its shape has 2 entries, the column\'s ndim is 3'), E('the row has 2 elements, shape [1,1,3] needs 3')] },
  },
  {
    name: 'ray_hostile_reduce', type: list(leaf('float32')), ext: [RAY_T, pickle(HOSTILE5)],
    raw: [[1], [2], [3], [4]],
    expect: { error: 'a Python pickle, which tensorview does not execute because unpickling it could run code (CVE-2026-41486' },
  },
  {
    name: 'ray_hostile_global', type: rayVar(leaf('float32')), ext: [RAY_V, pickle(HOSTILE2)],
    raw: [{ data: [1], shape: [1] }, null, { data: [], shape: [0] }, { data: [2], shape: [1] }],
    expect: { error: "opcode GLOBAL (0x63 'c') at byte 2" },
  },
];

// ---- dialects_hf.arrow

// pyJSON is Python's json.dumps (separators ", " and ": ") for the values here.
const pyJSON = (v) => (v === null ? 'null'
  : Array.isArray(v) ? '[' + v.map(pyJSON).join(', ') + ']'
    : typeof v === 'object' ? '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ': ' + pyJSON(x)).join(', ') + '}'
      : JSON.stringify(v));
const hfMeta = (shape, dtype) => pyJSON([shape, dtype]);


const HF = (n) => `datasets.features.features.Array${n}DExtensionType`;
const nestedList = (depth, t) => (depth === 0 ? t : list(nestedList(depth - 1, t)));
const a3 = (d0, k) => seq(d0 * 4, (i) => (k * 30 + i) % 256);
const hfCols = [
  {
    name: 'a2_f32', type: nestedList(2, leaf('float32')), ext: [HF(2), hfMeta([2, 3], 'float32')],
    raw: [nest([2, 3], f23(1)), null, nest([2, 3], f23(2))],
    expect: { dialect: 'Hugging Face Array2D', shape: [2, 3], ndim: 2, rows: [T([2, 3], f23(1)), null, T([2, 3], f23(2))] },
  },
  {
    name: 'a3_u8_var', type: nestedList(3, leaf('uint8')), ext: [HF(3), hfMeta([null, 2, 2], 'uint8')],
    raw: [nest([1, 2, 2], a3(1, 1)), nest([3, 2, 2], a3(3, 2)), []],
    expect: { dialect: 'Hugging Face Array3D', shape: null, ndim: 3, rows: [T([1, 2, 2], a3(1, 1)), T([3, 2, 2], a3(3, 2)), T([0, 2, 2], [])] },
  },
  {
    name: 'a4_i64', type: nestedList(4, leaf('int64')), ext: [HF(4), hfMeta([1, 2, 1, 2], 'int64')],
    raw: [nest([1, 2, 1, 2], [1, -2, 3, -4]), nest([1, 2, 1, 2], [5, 6, 7, 8]), nest([1, 2, 1, 2], [-9007199254740991, 0, 0, 9007199254740991])],
    expect: { dialect: 'Hugging Face Array4D', shape: [1, 2, 1, 2], ndim: 4,
      rows: [T([1, 2, 1, 2], [1, -2, 3, -4]), T([1, 2, 1, 2], [5, 6, 7, 8]), T([1, 2, 1, 2], [-9007199254740991, 0, 0, 9007199254740991])] },
  },
  {
    name: 'a5_f64', type: nestedList(5, leaf('float64')), ext: [HF(5), hfMeta([1, 1, 2, 1, 2], 'float64')],
    raw: [nest([1, 1, 2, 1, 2], [0.5, 1, 1.5, 2]), nest([1, 1, 2, 1, 2], [-0.5, -1, -1.5, -2]), nest([1, 1, 2, 1, 2], [0, 0, 0, 1e-3])],
    expect: { dialect: 'Hugging Face Array5D', shape: [1, 1, 2, 1, 2], ndim: 5,
      rows: [T([1, 1, 2, 1, 2], [0.5, 1, 1.5, 2]), T([1, 1, 2, 1, 2], [-0.5, -1, -1.5, -2]), T([1, 1, 2, 1, 2], [0, 0, 0, 1e-3])] },
  },
  {
    name: 'a2_i32_bad_rows', type: nestedList(2, leaf('int32')), ext: [HF(2), hfMeta([null, 3], 'int32')],
    raw: [[[1, 2, 3], [4, 5]], [[1, 2, 3], null], [[7, 8, 9]]],
    expect: { dialect: 'Hugging Face Array2D', shape: null, ndim: 2,
      rows: [E('has 2 elements, the shape needs 3'), E('inner list at depth 1'), T([1, 3], [7, 8, 9])] },
  },
  {
    name: 'a2_string', type: nestedList(2, new Utf8()), ext: [HF(2), hfMeta([1, 1], 'string')],
    raw: [[['a']], [['b']], [['c']]],
    expect: { error: 'dtype "string" is not numeric' },
  },
];
const hfFeatures = {
  a2_f32: { shape: [2, 3], dtype: 'float32', _type: 'Array2D' },
  a3_u8_var: { shape: [null, 2, 2], dtype: 'uint8', _type: 'Array3D' },
  a4_i64: { shape: [1, 2, 1, 2], dtype: 'int64', _type: 'Array4D' },
  a5_f64: { shape: [1, 1, 2, 1, 2], dtype: 'float64', _type: 'Array5D' },
  a2_i32_bad_rows: { shape: [null, 3], dtype: 'int32', _type: 'Array2D' },
  a2_string: { shape: [1, 1], dtype: 'string', _type: 'Array2D' },
};
// ------------------------------------------------------------ writing

function writeFile(file, cols, batches, schemaMeta) {
  const n = cols[0].raw.length;
  for (const c of cols) assert(c.raw.length === n && (!c.expect.rows || c.expect.rows.length === n), `${file} ${c.name}: row count`);
  const fields = cols.map((c) => new Field(c.name, c.type, true,
    c.ext ? new Map([['ARROW:extension:name', c.ext[0]], ['ARROW:extension:metadata', c.ext[1]]]) : undefined));
  const schema = new Schema(fields, new Map([['writer', WRITER], ...schemaMeta]));
  const rbs = batches.map(([lo, hi]) => new RecordBatch(schema, makeData({
    type: new Struct(schema.fields), length: hi - lo, nullCount: 0,
    children: cols.map((c) => build(c.type, c.raw.slice(lo, hi))),
  })));
  const bytes = Buffer.from(tableToIPC(new Table(rbs), 'file'));
  // Put the pickles' bytes in place of their placeholders.
  for (const { ph, bytes: pk } of PICKLES) {
    const needle = Buffer.from(ph, 'ascii');
    let at = bytes.indexOf(needle), count = 0;
    while (at >= 0) { pk.copy(bytes, at); count++; at = bytes.indexOf(needle, at + 1); }
    if (count) assert(count >= 1, `${file}: placeholder ${ph} found ${count} times, want 2 (schema and footer)`);
  }
  writeFileSync(join(OUT, file), bytes);

  // Self-check: apache-arrow reads the file back with the metadata and
  // storage values written.
  const t = tableFromIPC(readFileSync(join(OUT, file)));
  assert(t.numRows === n && t.batches.length === batches.length, `${file}: rows/batches`);
  for (const c of cols) {
    const f = t.schema.fields.find((x) => x.name === c.name);
    if (c.ext) {
      assert(f.metadata.get('ARROW:extension:name') === c.ext[0], `${file} ${c.name}: extension name`);
      const pk = PICKLES.find((p) => p.ph === c.ext[1]);
      if (!pk) assert(f.metadata.get('ARROW:extension:metadata') === c.ext[1], `${file} ${c.name}: metadata`);
    }
    const got = t.getChild(c.name).toArray();
    c.raw.forEach((r, i) => {
      const g = got[i];
      const norm = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? Number(x) : x));
      const plain = (v) => (v !== null && typeof v === 'object' && typeof v.toJSON === 'function' ? plain(v.toJSON())
        : Array.isArray(v) ? v.map(plain)
          : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) : v);
      assert(norm(plain(g)) === norm(r === null ? null : r), `${file} ${c.name} row ${i}: read ${norm(plain(g))}, wrote ${norm(r)}`);
    });
  }
}

const expected = {};
function record(file, cols) {
  expected[file] = Object.fromEntries(cols.map((c) => [c.name, c.expect]));
}

writeFile('dialects_nested.arrow', nestedCols, [[0, 3], [3, 5]], []);
record('dialects_nested.arrow', nestedCols);
writeFile('dialects_ray.arrow', rayCols, [[0, 4]], []);
record('dialects_ray.arrow', rayCols);
writeFile('dialects_hf.arrow', hfCols, [[0, 3]], [['huggingface', pyJSON({ info: { features: hfFeatures } })]]);
record('dialects_hf.arrow', hfCols);

// One line per column, so diffs show what changed.
const lines = Object.entries(expected).map(([file, cols]) => `  ${JSON.stringify(file)}: {\n` +
  Object.entries(cols).map(([name, e]) => `    ${JSON.stringify(name)}: ${JSON.stringify(e)}`).join(',\n') + '\n  }');
writeFileSync(join(OUT, 'dialects_expected.json'), '{\n' + lines.join(',\n') + '\n}\n');
console.log('wrote dialects_nested.arrow, dialects_ray.arrow, dialects_hf.arrow, dialects_expected.json');
