// gen_nongo.mjs — tensor files from two more non-Go Arrow writers:
//   * @uwdata/flechette 2.6.0 (its own JavaScript IPC writer), and
//   * arrow-rs, compiled to WebAssembly in parquet-wasm 0.8.0: it re-reads
//     flechette's IPC stream and writes it again as an IPC stream and as
//     Parquet (with the Arrow schema in ARROW:schema).
// Every value is given below; nongo_expected.json records them for the Go
// tests (physical shape and row-major values per row, null for null rows).
//
// Regenerate:   cd testdata && npm ci && node gen_nongo.mjs

import {
  Table, columnFromArray, field, fixedSizeList, list, struct,
  float32, int32, int64, uint8, utf8, tableToIPC, tableFromIPC,
} from '@uwdata/flechette';
import * as pw from 'parquet-wasm';
import { writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const ext = (name, json) => new Map([['ARROW:extension:name', name], ['ARROW:extension:metadata', json]]);
const FST = 'arrow.fixed_shape_tensor', VST = 'arrow.variable_shape_tensor';

// Column contents: [name, flechette type, extension metadata JSON, rows]. A
// tensor row is {shape, values} (physical, row-major) or null.
const hwc = (k) => ({ shape: [2, 2, 3], values: Array.from({ length: 12 }, (_, i) => (k * 40 + i * 17) % 256) });
const columns = [
  ['id', int32(), null, [1, 2, 3]],
  ['name', utf8(), null, ['first', 'second', 'third']],
  ['fst_u8_hwc', fixedSizeList(field('item', uint8(), true), 12), ext(FST, '{"shape":[2,2,3],"dim_names":["H","W","C"]}'),
    [hwc(1), null, hwc(3)]],
  ['fst_f32_perm', fixedSizeList(field('item', float32(), true), 6), ext(FST, '{"shape":[2,3],"permutation":[1,0],"dim_names":["H","W"]}'),
    [{ shape: [2, 3], values: [0.5, 1.5, 2.5, 3.5, 4.5, 5.5] }, { shape: [2, 3], values: [-1, -2, -3, -4, -5, -6] }, { shape: [2, 3], values: [0, 0, 0, 0, 0, 1] }]],
  ['fst_i64_vec', fixedSizeList(field('item', int64(), true), 3), ext(FST, '{"shape":[3]}'),
    [{ shape: [3], values: [1, -1, 2] }, { shape: [3], values: [9007199254740991, 0, -9007199254740991] }, null]],
  ['vst_f32', struct([field('data', list(field('item', float32(), true)), true), field('shape', fixedSizeList(field('item', int32(), true), 2), true)]),
    ext(VST, '{"dim_names":["H","W"],"uniform_shape":[null,2]}'),
    [{ shape: [1, 2], values: [1, 2] }, null, { shape: [3, 2], values: [0, 1, 2, 3, 4, 5] }]],
];

const toFlechette = (type, rows) => rows.map((r) => {
  if (r === null || typeof r !== 'object') return r;
  if (type.typeId === 13 /* Struct */) return { data: r.values, shape: r.shape };
  return type.children?.[0]?.type?.bitWidth === 64 ? r.values.map(BigInt) : r.values;
});

const fields = columns.map(([name, type, meta]) => field(name, type, true, meta ?? undefined));
const cols = columns.map(([, type, , rows]) => columnFromArray(toFlechette(type, rows), type));
const schema = { version: 4, endianness: 0, fields, metadata: new Map([['writer', 'flechette 2.6.0']]) };
const table = new Table(schema, cols);
const fileBytes = tableToIPC(table, { format: 'file' });
const streamBytes = tableToIPC(table, { format: 'stream' });
writeFileSync(join(OUT, 'flechette_tensors.arrow'), fileBytes);
writeFileSync(join(OUT, 'flechette_tensors.arrows'), streamBytes);

// arrow-rs (parquet-wasm) re-writes flechette's stream.
writeFileSync(join(OUT, 'arrowrs_tensors.arrows'), pw.Table.fromIPCStream(streamBytes).intoIPCStream());
writeFileSync(join(OUT, 'arrowrs_tensors.parquet'), pw.writeParquet(pw.Table.fromIPCStream(streamBytes)));

// Self-check: flechette reads every IPC file back with the same metadata and values.
for (const f of ['flechette_tensors.arrow', 'flechette_tensors.arrows', 'arrowrs_tensors.arrows']) {
  const t = tableFromIPC(readFileSync(join(OUT, f)), { useBigInt: true });
  for (const [name, type, meta, rows] of columns) {
    const fld = t.schema.fields.find((x) => x.name === name);
    if (meta && fld.metadata.get('ARROW:extension:metadata') !== meta.get('ARROW:extension:metadata')) {
      throw new Error(`${f} ${name}: metadata ${fld.metadata.get('ARROW:extension:metadata')}`);
    }
    const got = t.getChild(name).toArray();
    rows.forEach((r, i) => {
      const g = got[i];
      if (r === null) { if (g !== null) throw new Error(`${f} ${name} row ${i}: want null`); return; }
      const vals = typeof r === 'object' ? (type.typeId === 13 ? Array.from(g.data) : Array.from(g)) : [g];
      const want = typeof r === 'object' ? r.values : [r];
      if (JSON.stringify(vals.map(Number)) !== JSON.stringify(want.map(Number))) {
        throw new Error(`${f} ${name} row ${i}: ${vals} want ${want}`);
      }
    });
  }
}

const expected = { generator: 'gen_nongo.mjs', files: {} };
for (const f of ['flechette_tensors.arrow', 'flechette_tensors.arrows', 'arrowrs_tensors.arrows', 'arrowrs_tensors.parquet']) {
  expected.files[f] = { num_rows: 3, columns: Object.fromEntries(columns.filter(([, , m]) => m).map(([name, , meta, rows]) => [name, {
    extension: meta.get('ARROW:extension:name'), metadata: meta.get('ARROW:extension:metadata'), rows,
  }])) };
}
writeFileSync(join(OUT, 'nongo_expected.json'), JSON.stringify(expected, null, 1) + '\n');
console.log('wrote', Object.keys(expected.files).join(', '));
