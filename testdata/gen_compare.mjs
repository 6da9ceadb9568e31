// gen_compare.mjs — a prediction beside its target, for the inspector's
// comparison of two tensors, written by npm apache-arrow
// 21.2.0 as a pyarrow user writes a model's outputs next to its labels:
//
//   compare.arrow, one record batch of 3 rows:
//     id              int32
//     target          arrow.fixed_shape_tensor float32 [5, 12, 16],
//                     dim_names slice, H, W
//     prediction      arrow.fixed_shape_tensor float32 stored [12, 16, 5]
//                     (dim_names H, W, slice) with permutation [2, 0, 1]:
//                     logically [5, 12, 16] (slice, H, W), as
//                     FixedShapeTensorArray.from_numpy_ndarray keeps a
//                     channels-last array's layout; compared by logical index
//     baseline        arrow.fixed_shape_tensor float64 [5, 12, 16]: the
//                     prediction's values as float64 (another value type)
//     thumb           arrow.fixed_shape_tensor float32 [12, 16] (another shape)
//     image           arrow.fixed_shape_tensor uint8 [12, 16, 3], dim_names H, W, C
//     reconstruction  arrow.fixed_shape_tensor uint8 [12, 16, 3], dim_names H, W, C
//   Row 1's target is row 0's plus (slice + 1)/128; row 2's prediction is
//   null. Every float value is a multiple of 1/1024 below 1: exact in
//   float32, so A − B is exact in float64 and the statistics below are
//   computed here as tensorview computes them (float64, row-major logical
//   order, infinities left out).
//
// target(s, y, x) = (x + 16y)/512 + s/32 + 1/64; prediction = target + delta, where
// delta is a noise of −2..2/1024, ((7x + 3y + s) mod 5 − 2)/1024, plus 1/8
// on slice 2's rows 3..5 × columns 9..12, exactly −1/4 at (3, 7, 4) (the
// largest difference), and +Infinity at (4, 0, 0) (not compared: an
// infinity against a number).
// image(y, x, c) = 20 + (13x + 7y + 50c) mod 200; reconstruction = image +
// ((x + 2y + c) mod 7 − 3), except −40 at (6, 9, 0).
//
// compare_expected.json gives every value (logical, row-major; null for a
// null row; "Infinity", "-Infinity" and "NaN" as strings) and, for the
// comparisons the tests make, what overlay.Diff must give: count,
// compared, max |A−B| and where, mean |A−B|, RMSE, peak and PSNR, the
// elements differing at each tolerance listed, the infinities against a
// number, and A − B itself.
//
// (No NaN: app/decode's TestReadColumnsInteropCorpus compares every
// testdata column with array.Equal, for which NaN differs from itself.)
//
// Regenerate:   cd testdata && npm ci && node gen_compare.mjs

import {
  Field, Schema, Struct, FixedSizeList, RecordBatch, Table,
  Int32, Uint8, Float32, Float64, makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const FST = 'arrow.fixed_shape_tensor';
const S = 5, H = 12, W = 16, C = 3;

function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
const prod = (a) => a.reduce((x, y) => x * y, 1);

// Logical (slice, y, x) tensors as flat row-major arrays.
const at3 = (f) => range(S * H * W, (i) => f(Math.floor(i / (H * W)), Math.floor(i / W) % H, i % W));
const target0 = at3((s, y, x) => (x + 16 * y) / 512 + s / 32 + 1 / 64);
const target1 = at3((s, y, x) => (x + 16 * y) / 512 + s / 32 + 1 / 64 + (s + 1) / 128);
const delta = (s, y, x) => {
  if (s === 4 && y === 0 && x === 0) return Infinity;
  if (s === 3 && y === 7 && x === 4) return -1 / 4;
  let d = (((7 * x + 3 * y + s) % 5) - 2) / 1024;
  if (s === 2 && y >= 3 && y <= 5 && x >= 9 && x <= 12) d += 1 / 8;
  return d;
};
const pred = (t) => t.map((v, i) => v + delta(Math.floor(i / (H * W)), Math.floor(i / W) % H, i % W));
const prediction0 = pred(target0), prediction1 = pred(target1);
for (const v of [...target0, ...target1, ...prediction0, ...prediction1]) {
  assert(v === Infinity || (v >= 0 && v < 1 && Math.fround(v) === v && v * 1024 === Math.round(v * 1024)), 'values exact in float32: ' + v);
}

const at2 = (f) => range(H * W * C, (i) => f(Math.floor(i / (W * C)), Math.floor(i / C) % W, i % C));
const image = at2((y, x, c) => 20 + ((13 * x + 7 * y + 50 * c) % 200));
const recon = at2((y, x, c) => image[(y * W + x) * C + c] + (y === 6 && x === 9 && c === 0 ? -40 : ((x + 2 * y + c) % 7) - 3));
assert(recon.every((v) => v >= 0 && v <= 255), 'reconstruction within uint8');
const thumb = range(H * W, (i) => (i % W) / 16);

// transpose a row-major logical tensor of shape `shape` to the physical
// layout of permutation p: physical dim p[i] is logical dim i.
function toPhysical(values, shape, p) {
  const phys = p.map((_, j) => shape[p.indexOf(j)]);
  const out = new Array(values.length);
  const lstr = shape.map((_, i) => prod(shape.slice(i + 1)));
  const pstr = phys.map((_, j) => prod(phys.slice(j + 1)));
  for (let k = 0; k < values.length; k++) {
    let pos = 0;
    for (let i = 0; i < shape.length; i++) pos += (Math.floor(k / lstr[i]) % shape[i]) * pstr[p[i]];
    out[pos] = values[k];
  }
  return { phys, values: out };
}

function fst(name, vt, Arr, meta, rows) {
  const size = prod(meta.shape);
  const type = new FixedSizeList(size, new Field('item', vt, true));
  const flat = new Arr(rows.length * size);
  rows.forEach((r, i) => { if (r !== null) flat.set(r, i * size); });
  const bm = new Uint8Array(Math.ceil(rows.length / 8));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  const child = makeData({ type: vt, length: flat.length, nullCount: 0, data: flat });
  return {
    field: new Field(name, type, true, new Map([['ARROW:extension:name', FST], ['ARROW:extension:metadata', JSON.stringify(meta)]])),
    data: makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: nulls ? bm : undefined, child }),
  };
}

const P = [2, 0, 1];
const permuted = (v) => toPhysical(v, [S, H, W], P).values;
assert(toPhysical(target0, [S, H, W], P).phys.join() === [H, W, S].join(), 'physical shape');
// Physical (y, x, s) holds logical (s, y, x).
assert(permuted(prediction0)[(7 * W + 4) * S + 3] === prediction0[(3 * H + 7) * W + 4], 'permuted layout');

const cols = [
  { field: new Field('id', new Int32(), false), data: vectorFromArray([0, 1, 2], new Int32()).data[0] },
  fst('target', new Float32(), Float32Array, { shape: [S, H, W], dim_names: ['slice', 'H', 'W'] }, [target0, target1, target0]),
  fst('prediction', new Float32(), Float32Array, { shape: [H, W, S], dim_names: ['H', 'W', 'slice'], permutation: P },
    [permuted(prediction0), permuted(prediction1), null]),
  fst('baseline', new Float64(), Float64Array, { shape: [S, H, W], dim_names: ['slice', 'H', 'W'] }, [prediction0, prediction1, prediction0]),
  fst('thumb', new Float32(), Float32Array, { shape: [H, W], dim_names: ['H', 'W'] }, [thumb, thumb, thumb]),
  fst('image', new Uint8(), Uint8Array, { shape: [H, W, C], dim_names: ['H', 'W', 'C'] }, [image, image, image]),
  fst('reconstruction', new Uint8(), Uint8Array, { shape: [H, W, C], dim_names: ['H', 'W', 'C'] }, [recon, recon, recon]),
];
const fields = cols.map((c) => c.field);
const schema = new Schema(fields);
const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: 3, nullCount: 0, children: cols.map((c) => c.data) }));
const bytes = tableToIPC(new Table([batch]), 'file');
writeFileSync(join(OUT, 'compare.arrow'), bytes);

// Read back: the stored values are the ones described.
const back = tableFromIPC(bytes);
assert(back.numRows === 3 && back.getChild('prediction').get(2) === null, 'rows');
assert([...back.getChild('target').get(1)].every((v, i) => v === target1[i]), 'target row 1');
const p0 = [...back.getChild('prediction').get(0)];
assert(p0.every((v, i) => Object.is(v, permuted(prediction0)[i])), 'prediction row 0');
assert([...back.getChild('reconstruction').get(0)].join() === recon.join(), 'reconstruction');

// diff computes what overlay.Diff gives for A and B (logical row-major
// values) of one value type, peak its PSNR peak.
function diff(a, b, peak, shape, tols) {
  let compared = 0, sumAbs = 0, sumSq = 0, maxAbs = NaN, maxAt = -1, otherInf = 0;
  const d = a.map((x, k) => x - b[k]);
  const abs = [];
  d.forEach((v, k) => {
    assert(!Number.isNaN(a[k]) && !Number.isNaN(b[k]), 'no NaN');
    const ix = !Number.isFinite(a[k]), iy = !Number.isFinite(b[k]);
    assert(!(ix && iy), 'no infinities on both sides');
    if (ix || iy) { otherInf++; return; }
    const e = Math.abs(v);
    compared++;
    sumAbs += e;
    sumSq += e * e;
    abs.push(e);
    if (maxAt < 0 || e > maxAbs) { maxAbs = e; maxAt = k; }
  });
  const mse = sumSq / compared;
  const idx = shape.map((_, i) => Math.floor(maxAt / prod(shape.slice(i + 1))) % shape[i]);
  return {
    shape, count: a.length, compared, max_abs: maxAbs, max_index: idx, mean_abs: sumAbs / compared,
    rmse: Math.sqrt(mse), peak, psnr: 10 * Math.log10(peak * peak / mse), other_inf: otherInf,
    differing: Object.fromEntries(tols.map((t) => [String(t), abs.filter((e) => e > t).length + otherInf])),
    diff: finiteOrText(d),
  };
}
const finiteOrText = (v) => v.map((x) => (Number.isFinite(x) ? x : String(x)));
const TOLS = [0, 1 / 512, 0.2];
const vsPrediction = diff(target0, prediction0, 1, [S, H, W], TOLS);
assert(vsPrediction.max_abs === 0.25 && vsPrediction.max_index.join() === '3,7,4' && vsPrediction.other_inf === 1, 'target vs prediction');
const vsRow1 = diff(target0, target1, 1, [S, H, W], TOLS);
const imageDiff = diff(image, recon, 255, [H, W, C], [0, 2, 3]);
assert(imageDiff.max_abs === 40 && imageDiff.max_index.join() === '6,9,0', 'image vs reconstruction');

writeFileSync(join(OUT, 'compare_expected.json'), JSON.stringify({
  about: 'Written by gen_compare.mjs: compare.arrow\'s logical values (row-major; null for a null row; non-finite numbers as strings) and what overlay.Diff must give for A − B',
  slices: S, height: H, width: W, channels: C,
  values: {
    target: [finiteOrText(target0), finiteOrText(target1), finiteOrText(target0)],
    prediction: [finiteOrText(prediction0), finiteOrText(prediction1), null],
    image, reconstruction: recon,
  },
  diffs: {
    'target@0 - prediction@0': vsPrediction,
    'target@0 - target@1': vsRow1,
    'image@0 - reconstruction@0': imageDiff,
  },
}) + '\n');
