// gen_js.mjs — writes Arrow IPC fixtures that use the canonical tensor
// extension types (arrow.fixed_shape_tensor, arrow.variable_shape_tensor),
// produced by a non-Go Arrow implementation: npm `apache-arrow` 21.2.0.
//
// Regenerate:   cd testdata && npm ci && node gen_js.mjs
//
// Everything is built with low-level makeData() calls (not the Builder /
// vectorFromArray path) so that every buffer is under our control:
//   * Child fields ("item" of every list / fixed-size list, and the "data" /
//     "shape" fields of the variable_shape_tensor struct) are declared
//     NULLABLE (this matches the storage types Arrow C++/pyarrow/Go create for
//     the canonical extensions), but no child ever contains a null: child
//     arrays have null_count 0 and no validity bitmap.
//   * A null tensor row is expressed only in the validity bitmap of the
//     top-level column. Its child slots are zero-filled (fixed_shape_tensor:
//     prod(shape) zeros; variable_shape_tensor: empty data list and an
//     all-zero shape).
//
// The script reads every written file back with tableFromIPC() and throws on
// any mismatch, then writes js_expected.json (the machine-readable truth that
// other readers' tests compare against).

import {
  Field, Schema, Struct, List, FixedSizeList, RecordBatch, Table,
  Int16, Int32, Uint8, Float32, Float64, Utf8,
  makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import { writeFileSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const WRITER = 'apache-arrow-js 21.2.0';
const FST = 'arrow.fixed_shape_tensor';
const VST = 'arrow.variable_shape_tensor';

// ---------------------------------------------------------------- helpers

const prod = (a) => a.reduce((x, y) => x * y, 1);
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
function assertEq(got, want, msg) {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) throw new Error(`self-check failed: ${msg}\n  got:  ${g.slice(0, 400)}\n  want: ${w.slice(0, 400)}`);
}

const TYPES = {
  int16: { ctor: () => new Int16(), arr: Int16Array },
  int32: { ctor: () => new Int32(), arr: Int32Array },
  uint8: { ctor: () => new Uint8(), arr: Uint8Array },
  float32: { ctor: () => new Float32(), arr: Float32Array },
  float64: { ctor: () => new Float64(), arr: Float64Array },
};

// Exact JSON for the extension metadata, keys in the canonical order.
function fstMeta({ shape, permutation, dim_names }) {
  const o = { shape };
  if (permutation) o.permutation = permutation;
  if (dim_names) o.dim_names = dim_names;
  return JSON.stringify(o);
}
function vstMeta({ permutation, dim_names, uniform_shape }) {
  const o = {};
  if (permutation) o.permutation = permutation;
  if (dim_names) o.dim_names = dim_names;
  if (uniform_shape) o.uniform_shape = uniform_shape;
  return JSON.stringify(o);
}
const extMeta = (name, json) => new Map([['ARROW:extension:name', name], ['ARROW:extension:metadata', json]]);

function validityBitmap(rows) {
  const bm = new Uint8Array(Math.ceil(rows.length / 8));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  return { bm, nulls };
}

// --- column specs. A "spec" describes one column: its Arrow field, how to
// build its Data for a slice of rows, and its expected-JSON entry.

function fstSpec(name, valueType, opts, rows) {
  const size = prod(opts.shape);
  const metadata = fstMeta(opts);
  const type = new FixedSizeList(size, new Field('item', TYPES[valueType].ctor(), true));
  for (const r of rows) if (r !== null) assert(r.length === size, `${name}: row length`);
  return {
    name, kind: 'fst', valueType, opts, rows, metadata,
    field: new Field(name, type, true, extMeta(FST, metadata)),
    data(lo, hi) {
      const part = rows.slice(lo, hi);
      const flat = new TYPES[valueType].arr(part.length * size); // null rows stay zero
      part.forEach((r, i) => { if (r !== null) flat.set(r, i * size); });
      const child = makeData({ type: type.children[0].type, length: flat.length, nullCount: 0, data: flat });
      const { bm, nulls } = validityBitmap(part);
      return makeData({ type, length: part.length, nullCount: nulls, nullBitmap: nulls ? bm : undefined, child });
    },
  };
}

// rows: null | { shape: [...], values: [...] }
function vstSpec(name, valueType, ndim, opts, rows) {
  const metadata = vstMeta(opts);
  const dataType = new List(new Field('item', TYPES[valueType].ctor(), true));
  const shapeType = new FixedSizeList(ndim, new Field('item', new Int32(), true));
  const type = new Struct([new Field('data', dataType, true), new Field('shape', shapeType, true)]);
  for (const r of rows) if (r !== null) {
    assert(r.shape.length === ndim && prod(r.shape) === r.values.length, `${name}: row shape`);
  }
  return {
    name, kind: 'vst', valueType, ndim, opts, rows, metadata,
    field: new Field(name, type, true, extMeta(VST, metadata)),
    data(lo, hi) {
      const part = rows.slice(lo, hi);
      const offsets = new Int32Array(part.length + 1);
      const all = [];
      const shapes = new Int32Array(part.length * ndim); // null rows: all-zero shape
      part.forEach((r, i) => {
        if (r !== null) { all.push(...r.values); shapes.set(r.shape, i * ndim); }
        offsets[i + 1] = all.length;
      });
      const values = makeData({ type: dataType.children[0].type, length: all.length, nullCount: 0, data: TYPES[valueType].arr.from(all) });
      const dataD = makeData({ type: dataType, length: part.length, nullCount: 0, valueOffsets: offsets, child: values });
      const shapeChild = makeData({ type: shapeType.children[0].type, length: shapes.length, nullCount: 0, data: shapes });
      const shapeD = makeData({ type: shapeType, length: part.length, nullCount: 0, child: shapeChild });
      const { bm, nulls } = validityBitmap(part);
      return makeData({ type, length: part.length, nullCount: nulls, nullBitmap: nulls ? bm : undefined, children: [dataD, shapeD] });
    },
  };
}

// Plain (non-extension, non-null) scalar column.
function scalarSpec(name, arrowType, values) {
  return {
    name, kind: 'scalar', rows: values,
    field: new Field(name, arrowType, true),
    data(lo, hi) { return vectorFromArray(values.slice(lo, hi), arrowType).data[0]; },
  };
}

function buildTable(specs, numRows, batchSize = numRows) {
  const schema = new Schema(specs.map((s) => s.field), new Map([['writer', WRITER]]));
  const batches = [];
  for (let lo = 0; lo < numRows; lo += batchSize) {
    const hi = Math.min(numRows, lo + batchSize);
    const children = specs.map((s) => s.data(lo, hi));
    batches.push(new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: hi - lo, nullCount: 0, children })));
  }
  return new Table(batches);
}

// Generic N-d transpose, numpy.transpose(x, perm) semantics:
// out.shape[j] = shape[perm[j]];  out[i_0..i_{n-1}] = x[idx] with idx[perm[j]] = i_j.
function transpose(values, shape, perm) {
  const n = shape.length;
  const strides = new Array(n);
  for (let k = n - 1, s = 1; k >= 0; k--) { strides[k] = s; s *= shape[k]; }
  const outShape = perm.map((p) => shape[p]);
  const out = [];
  const idx = new Array(n).fill(0); // logical multi-index, row-major odometer
  for (let c = 0; c < values.length; c++) {
    let src = 0;
    for (let j = 0; j < n; j++) src += idx[j] * strides[perm[j]];
    out.push(values[src]);
    for (let j = n - 1; j >= 0; j--) { if (++idx[j] < outShape[j]) break; idx[j] = 0; }
  }
  return { shape: outShape, values: out };
}

// ------------------------------------------------------- expected-JSON bits

function expectedColumn(spec, { full = true } = {}) {
  if (spec.kind === 'scalar') return { values_str: spec.rows.map((v) => (v === null ? null : String(v))) };
  const o = {
    extension: spec.kind === 'fst' ? FST : VST,
    metadata: spec.metadata,
    value_type: spec.valueType,
  };
  if (spec.kind === 'fst') o.shape = spec.opts.shape; else o.ndim = spec.ndim;
  if (spec.opts.permutation) o.permutation = spec.opts.permutation;
  if (spec.opts.dim_names) o.dim_names = spec.opts.dim_names;
  if (spec.opts.permutation && spec.opts.dim_names) o.logical_dim_names = spec.opts.permutation.map((p) => spec.opts.dim_names[p]);
  if (spec.opts.uniform_shape) o.uniform_shape = spec.opts.uniform_shape;
  o.rows = spec.rows.map((r) => {
    if (r === null) return null;
    const shape = spec.kind === 'fst' ? spec.opts.shape : r.shape;
    const values = spec.kind === 'fst' ? Array.from(r) : Array.from(r.values);
    if (!full) {
      const bytes = Buffer.from(TYPES[spec.valueType].arr.from(values).buffer);
      return { shape, sum: values.reduce((a, b) => a + b, 0), values_sha256: createHash('sha256').update(bytes).digest('hex') };
    }
    const row = { shape, values };
    if (spec.opts.permutation) {
      const t = transpose(values, shape, spec.opts.permutation);
      row.logical_shape = t.shape;
      row.logical_values = t.values;
    }
    return row;
  });
  return o;
}

// ------------------------------------------------------------ read-back check

function rowValues(spec, got) {
  // got: Vector (fst) or StructRow (vst) or null
  if (got === null) return null;
  if (spec.kind === 'fst') return Array.from(got.toArray());
  return { shape: Array.from(got.shape.toArray()), values: Array.from(got.data.toArray()) };
}

function checkFile(file, format, specs, numRows, numBatches) {
  const bytes = readFileSync(join(OUT, file));
  const t = tableFromIPC(bytes);
  assertEq(t.numRows, numRows, `${file}: numRows`);
  assertEq(t.batches.length, numBatches, `${file}: batch count`);
  assertEq([...t.schema.metadata], [['writer', WRITER]], `${file}: schema metadata`);
  assertEq(t.schema.fields.map((f) => f.name), specs.map((s) => s.name), `${file}: field names`);
  for (const s of specs) {
    const f = t.schema.fields.find((x) => x.name === s.name);
    assertEq(String(f.type), String(s.field.type), `${file}/${s.name}: type`);
    assertEq(f.nullable, true, `${file}/${s.name}: nullable`);
    if (s.kind === 'scalar') {
      assertEq(f.metadata.size, 0, `${file}/${s.name}: no field metadata`);
    } else {
      assertEq([...f.metadata], [['ARROW:extension:name', s.kind === 'fst' ? FST : VST], ['ARROW:extension:metadata', s.metadata]],
        `${file}/${s.name}: extension metadata`);
      // child nullability as written
      const kids = s.kind === 'fst' ? f.type.children : [f.type.children[0], f.type.children[1], f.type.children[0].type.children[0], f.type.children[1].type.children[0]];
      for (const k of kids) assertEq(k.nullable, true, `${file}/${s.name}: child ${k.name} nullable`);
    }
    const col = t.getChild(s.name);
    const got = range(numRows, (i) => (s.kind === 'scalar' ? col.get(i) : rowValues(s, col.get(i))));
    const want = s.rows.map((r) => (r === null ? null : s.kind === 'fst' ? Array.from(r) : s.kind === 'vst' ? { shape: r.shape, values: Array.from(r.values) } : r));
    assertEq(got, want, `${file}/${s.name}: values`);
    assertEq(col.nullCount, s.rows.filter((r) => r === null).length, `${file}/${s.name}: null count`);
  }
  // framing checks on the raw bytes
  const u32 = (o) => bytes.readUInt32LE(o);
  if (format === 'file') {
    assertEq(bytes.subarray(0, 6).toString('latin1'), 'ARROW1', `${file}: leading magic`);
    assertEq(bytes.subarray(bytes.length - 6).toString('latin1'), 'ARROW1', `${file}: trailing magic`);
    assertEq(u32(8), 0xffffffff, `${file}: continuation marker after magic`);
  } else {
    assertEq(u32(0), 0xffffffff, `${file}: stream starts with continuation marker`);
    assertEq([u32(bytes.length - 8), u32(bytes.length - 4)], [0xffffffff, 0], `${file}: EOS marker`);
  }
}

const written = [];
function writeTable(base, specs, numRows, { batchSize = numRows, stream = false } = {}) {
  const table = buildTable(specs, numRows, batchSize);
  const numBatches = table.batches.length;
  const outs = [[`${base}.arrow`, 'file']];
  if (stream) outs.push([`${base}.arrows`, 'stream']);
  for (const [file, format] of outs) {
    writeFileSync(join(OUT, file), tableToIPC(table, format));
    checkFile(file, format, specs, numRows, numBatches);
    written.push(file);
  }
  return { outs, numBatches };
}

// ==================================================================== data

const expected = {};
function addExpected(outs, specs, numRows, numBatches, opts) {
  for (const [file, format] of outs) {
    const columns = {};
    for (const s of specs) columns[s.name] = expectedColumn(s, opts);
    expected[file] = { format, num_rows: numRows, num_batches: numBatches, schema_metadata: { writer: WRITER }, columns };
  }
}

// (a) js_images ------------------------------------------------------------
{
  const H = 4, W = 3, C = 3;
  const img = (f) => { const a = []; for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) a.push(...f(h, w)); return a; };
  const rgb = [
    img((h, w) => [h * 60, w * 100, 255 - h * 60]),                 // row 0 "red-green"
    img((h, w) => { const k = h * W + w; return [k * 20, 255 - k * 20, ((h + w) % 2) * 255]; }), // row 1 "gradient"
    null,                                                            // row 2 "null-row"
  ];
  const gray = range(3, (r) => range(8, (k) => r * 10 + k * 0.5));
  const chw = range(3, (r) => { const a = []; for (let c = 0; c < 3; c++) for (let h = 0; h < 2; h++) for (let w = 0; w < 2; w++) a.push(r * 100 + c * 10 + h * 2 + w); return a; });
  const specs = [
    scalarSpec('id', new Int32(), [0, 1, 2]),
    scalarSpec('label', new Utf8(), ['red-green', 'gradient', 'null-row']),
    fstSpec('rgb', 'uint8', { shape: [H, W, C], dim_names: ['H', 'W', 'C'] }, rgb),
    fstSpec('gray', 'float32', { shape: [2, 4] }, gray),
    fstSpec('chw', 'uint8', { shape: [3, 2, 2], dim_names: ['C', 'H', 'W'] }, chw),
  ];
  const { outs, numBatches } = writeTable('js_images', specs, 3, { stream: true });
  addExpected(outs, specs, 3, numBatches);
}

// (b) js_permuted ----------------------------------------------------------
{
  const rows = [range(12, (i) => i + 1), range(12, (i) => i + 101)];
  const specs = [fstSpec('t', 'int32', { shape: [2, 2, 3], permutation: [2, 0, 1], dim_names: ['A', 'B', 'C'] }, rows)];
  const { outs, numBatches } = writeTable('js_permuted', specs, 2);
  addExpected(outs, specs, 2, numBatches);
  // cross-check the generic transpose against the hand-derived answer
  const lv = expected['js_permuted.arrow'].columns.t.rows[0];
  assertEq(lv.logical_shape, [3, 2, 2], 'permuted logical shape');
  assertEq(lv.logical_values, [1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12], 'permuted logical values');
  assertEq(expected['js_permuted.arrow'].columns.t.logical_dim_names, ['C', 'A', 'B'], 'permuted logical dim names');
}

// (c) js_variable ----------------------------------------------------------
{
  const vt = [
    { shape: [2, 2, 3], values: range(12) },
    { shape: [1, 3, 3], values: range(9, (i) => 100 + i) },
    null,
    { shape: [0, 2, 3], values: [] },
  ];
  const v2 = [
    { shape: [2, 2], values: [1, -2, 3, -4] },
    { shape: [1, 1], values: [7] },
    { shape: [3, 1], values: [5, 6, 7] },
    { shape: [1, 2], values: [-1, -1] },
  ];
  const specs = [
    vstSpec('vt', 'float64', 3, { dim_names: ['H', 'W', 'C'], uniform_shape: [null, null, 3] }, vt),
    vstSpec('vt_int16_2d', 'int16', 2, {}, v2),
  ];
  const { outs, numBatches } = writeTable('js_variable', specs, 4, { stream: true });
  addExpected(outs, specs, 4, numBatches);
}

// (d) js_big ---------------------------------------------------------------
// image row r, pixel (h,w) -> [R,G,B], integer arithmetic only:
//   r%4==0  diagonal gradient  R=(8h+3r)&255, G=8w, B=255-4(h+w)
//   r%4==1  checkerboard, cell 2+r%6 px, colours PALETTE[r%8] / PALETTE[(r+3)%8]
//   r%4==2  concentric rings around (16,16): PALETTE[(floor(sqrt(dh²+dw²))>>(1+r%3) + r) % 8]
//   r%4==3  tartan: PALETTE[((h>>2) + (w>>3) + r) % 8]
// embedding row r, k -> ((7r + 3k) % 16 - 8) * 0.125          (float32-exact)
// mask row r: shape [8 + r%8, 8 + r%5]; 255 inside the inscribed ellipse,
//   i.e. (2h+1-H)²·W² + (2w+1-W)²·H² <= H²·W², else 0.
{
  const N = 64, S = 32;
  const PALETTE = [[230, 25, 75], [245, 130, 48], [255, 225, 25], [60, 180, 75], [70, 240, 240], [0, 130, 200], [145, 30, 180], [240, 50, 230]];
  const pixel = (r, h, w) => {
    switch (r % 4) {
      case 0: return [(8 * h + 3 * r) & 255, 8 * w, 255 - 4 * (h + w)];
      case 1: { const cell = 2 + (r % 6); return (Math.floor(h / cell) + Math.floor(w / cell)) % 2 ? PALETTE[r % 8] : PALETTE[(r + 3) % 8]; }
      case 2: { const d = Math.floor(Math.sqrt((h - 16) ** 2 + (w - 16) ** 2)); return PALETTE[((d >> (1 + (r % 3))) + r) % 8]; }
      default: return PALETTE[((h >> 2) + (w >> 3) + r) % 8];
    }
  };
  const images = range(N, (r) => { const a = []; for (let h = 0; h < S; h++) for (let w = 0; w < S; w++) a.push(...pixel(r, h, w)); return a; });
  const emb = range(N, (r) => range(8, (k) => (((7 * r + 3 * k) % 16) - 8) * 0.125));
  const masks = range(N, (r) => {
    const H = 8 + (r % 8), W = 8 + (r % 5), v = [];
    for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) v.push((2 * h + 1 - H) ** 2 * W * W + (2 * w + 1 - W) ** 2 * H * H <= H * H * W * W ? 255 : 0);
    return { shape: [H, W], values: v };
  });
  const specs = [
    scalarSpec('id', new Int32(), range(N)),
    scalarSpec('caption', new Utf8(), range(N, (r) => `sample ${r}`)),
    fstSpec('image', 'uint8', { shape: [S, S, 3], dim_names: ['H', 'W', 'C'] }, images),
    fstSpec('embedding', 'float32', { shape: [8] }, emb),
    vstSpec('mask', 'uint8', 2, { dim_names: ['H', 'W'] }, masks),
  ];
  const { outs, numBatches } = writeTable('js_big', specs, N, { batchSize: 16 });
  assertEq(numBatches, 4, 'js_big batches');
  // Big file: rows are summarised (shape, sum, sha256 of the little-endian
  // physical value bytes) instead of listing every value; embedding in full.
  addExpected(outs, specs, N, numBatches, { full: false });
  expected['js_big.arrow'].batch_num_rows = [16, 16, 16, 16];
  expected['js_big.arrow'].columns.embedding = expectedColumn(specs[3]);
}

// (e) unreadable files -----------------------------------------------------
{
  const src = readFileSync(join(OUT, 'js_images.arrow'));
  const cut = Math.floor(src.length * 0.6);
  writeFileSync(join(OUT, 'js_corrupt.arrow'), src.subarray(0, cut));
  writeFileSync(join(OUT, 'not_arrow.arrow'), 'this is not an arrow file\n');
  for (const f of ['js_corrupt.arrow', 'not_arrow.arrow']) {
    let threw = false;
    try {
      const t = tableFromIPC(readFileSync(join(OUT, f)));
      // apache-arrow may return a partial table instead of throwing; make
      // sure it at least does not yield the full data.
      threw = t.numRows !== 3;
    } catch { threw = true; }
    assert(threw, `${f} should not be fully readable`);
    written.push(f);
  }
  expected['js_corrupt.arrow'] = { format: 'file', error: true, note: `first ${cut} of ${src.length} bytes of js_images.arrow` };
  expected['not_arrow.arrow'] = { format: 'unknown', error: true, note: 'plain text' };
}

// ------------------------------------------------------------ js_expected.json

// Pretty-print with arrays of scalars kept on one line.
function pretty(v, ind = '') {
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || (typeof x !== 'object' && String(x).length < 40))) return JSON.stringify(v);
    return '[\n' + v.map((x) => ind + '  ' + pretty(x, ind + '  ')).join(',\n') + '\n' + ind + ']';
  }
  if (v && typeof v === 'object') {
    const ks = Object.keys(v);
    if (ks.length === 0) return '{}';
    return '{\n' + ks.map((k) => `${ind}  ${JSON.stringify(k)}: ${pretty(v[k], ind + '  ')}`).join(',\n') + '\n' + ind + '}';
  }
  return JSON.stringify(v);
}
const doc = {
  generator: 'gen_js.mjs',
  writer: WRITER,
  notes: [
    'shape/values are the PHYSICAL row-major layout as stored; logical view = numpy.transpose(physical, permutation).',
    'A null tensor row is null. Its storage child slots are zero-filled (fst) / empty data + all-zero shape (vst).',
    'All child fields (list/fixed-size-list "item", struct "data"/"shape") are declared nullable and contain no nulls.',
    'values_str: scalar column values rendered as strings.',
    'js_big.arrow rows give shape, sum and values_sha256 = sha256 of the physical values as little-endian bytes.',
  ],
  files: expected,
};
JSON.parse(JSON.stringify(doc)); // sanity
writeFileSync(join(OUT, 'js_expected.json'), pretty(doc) + '\n');
assertEq(JSON.parse(readFileSync(join(OUT, 'js_expected.json'), 'utf8')), doc, 'js_expected.json round-trip');
written.push('js_expected.json');

for (const f of written) {
  const b = readFileSync(join(OUT, f));
  console.log(`${f.padEnd(22)} ${String(b.length).padStart(7)}  ${createHash('sha256').update(b).digest('hex')}`);
}
console.log('all self-checks passed');
