// ipc_to_parquet.mjs — rewrites an Arrow IPC file as Parquet with a non-Go
// writer: apache-arrow 21.2.0 reads the file, parquet-wasm 0.8.0 (arrow-rs's
// Parquet writer) writes it, SNAPPY, dictionaries on, chunk statistics,
// rows row groups of at most the given size. The e2e tests of sort and
// filter (e2e/query_sources_test.go) run it on the file they wrote, so the
// Parquet file holds exactly the values they sort and filter independently.
//
//   node ipc_to_parquet.mjs in.arrow out.parquet rowGroupSize

import { tableFromIPC, tableToIPC } from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, rowGroup] = process.argv.slice(2);
if (!input || !output || !(+rowGroup > 0)) {
  console.error('usage: node ipc_to_parquet.mjs in.arrow out.parquet rowGroupSize');
  process.exit(2);
}
const table = tableFromIPC(readFileSync(input));
const props = new pw.WriterPropertiesBuilder()
  .setCreatedBy('parquet-rs version 59.3.0 (parquet-wasm 0.8.0)')
  .setMaxRowGroupSize(+rowGroup)
  .setCompression(pw.Compression.SNAPPY)
  .setStatisticsEnabled(pw.EnabledStatistics.Chunk)
  .build();
writeFileSync(output, pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(table, 'stream')), props));
