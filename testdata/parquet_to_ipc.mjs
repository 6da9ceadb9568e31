// Writes each Parquet file given as an Arrow IPC stream beside it
// (NAME.parquet → NAME.arrows): what parquet-wasm (arrow-rs) reads of it,
// its schema and every row group, for the e2e test that compares what the
// page shows of the Parquet file (read by the page's hyparquet engine) with
// what it shows of arrow-rs's reading (TestParquetEngineTypes).
//
// Usage: node parquet_to_ipc.mjs FILE.parquet...

import * as pw from 'parquet-wasm';
import { readFileSync, writeFileSync } from 'node:fs';

for (const path of process.argv.slice(2)) {
  const table = pw.readParquet(new Uint8Array(readFileSync(path)));
  writeFileSync(path.replace(/\.parquet$/, '.arrows'), table.intoIPCStream());
}
