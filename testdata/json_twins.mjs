// json_twins.mjs OUTDIR FILE.json.gz...: reads each Arrow integration JSON
// file (the twins of the arrow-testing gold files) with npm's apache-arrow,
// an implementation independent of arrow-go, and writes it as an Arrow IPC
// stream OUTDIR/<name>.arrows, or OUTDIR/<name>.err with the reason it
// could not (types apache-arrow JS does not read from JSON). Used by
// app/decode's TestGoldFilesMatchJSONTwins.
import * as arrow from 'apache-arrow';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [out, ...files] = process.argv.slice(2);
for (const f of files) {
  const name = path.basename(f).replace(/\.json\.gz$/, '');
  try {
    const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(f)).toString());
    const table = new arrow.Table(arrow.RecordBatchReader.from(json));
    fs.writeFileSync(path.join(out, name + '.arrows'), arrow.tableToIPC(table, 'stream'));
  } catch (e) {
    fs.writeFileSync(path.join(out, name + '.err'), String(e && e.message || e));
  }
}
