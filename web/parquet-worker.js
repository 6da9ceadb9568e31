// tensorview's Parquet reader: a module web worker. The page
// (app/browser/parquet*.go) starts it the first time a Parquet file is
// opened, so the first page load fetches none of it (web/boot.js starts it
// for a link to a Parquet file while the app starts: the app adopts that
// one, which loaded its engine meanwhile), and terminates it when
// the file closes, when a read traps or hangs, and when its memory has grown
// past the page's limit.
//
// Two engines:
//
//   - web/parquet/engine/parquet-engine.js (app/browser/parquetengine.js,
//     bundled by `make vendor`): hyparquet (pure JavaScript) bridged to
//     Arrow IPC by flechette, in the Arrow schema arrow-rs reads the file
//     as; 120 KB, 34 KB in brotli, its decompressors (GZIP, BROTLI, LZ4,
//     ZSTD) fetched apart, when a file uses them. It reads the files its
//     header lists (Hugging Face image sets, tensors as lists and
//     fixed-size lists, numbers, strings, structs, timestamps, dates,
//     times, durations, dictionaries such as pandas' and polars'
//     categoricals, decimals, float16, fixed-size binaries): every file of
//     the test corpus but two written to be declined (a map, a timestamp
//     unit arrow-rs converts its own way), the same schema and values as
//     parquet-wasm (TestParquetEngineConformance).
//   - parquet-wasm (arrow-rs's reader compiled to WebAssembly, 5 MB, 1.2 MB
//     in brotli, vendored into web/parquet/ by `make vendor`), imported only
//     when the first engine declines a file (a type it does not bridge, the
//     LZO codec) or fails on a read (a corrupt page: that read goes to
//     parquet-wasm, whose error the page shows).
//
// Bytes: opening reads the file's last TAIL bytes in one request (the
// footer is there unless it is larger, then one more request reads the
// rest) while the engine's module loads; a read asks only for the column
// chunks of the columns named, and only the pages that hold its rows when
// the file has a page index (offset index), or without one, of a big
// chunk, the pages up to its last row. A file by URL is read with single
// byte ranges the page fetches (bytes=a-b). The ranges last read are kept,
// up to keepBytes, for the next windows of the same row group.
// docs/parquet-engine.md compares the engines: sizes, bytes, time.
//
// One worker reads one file. Messages from the page, each with an id that
// the answer repeats:
//
//   {op: "open", id, blob, keepBytes}
//                                 open a Blob (a dropped or picked File)
//   {op: "open", id, size, keepBytes}
//                                 open a file of size bytes whose bytes the
//                                 page sends on request (a file by URL);
//                                 keepBytes: how many bytes of the ranges
//                                 last read to keep for the next reads;
//                                 engine: "parquet-wasm" to read with it
//                                 whatever the file (tests, comparisons)
//   {op: "warm"}                  load the engine before a file is
//                                 opened (web/boot.js, for a link to a
//                                 Parquet file, while the app starts; no
//                                 answer)
//   {op: "read", id, rowGroup, offset, limit, columns}
//                                 rows [offset, offset+limit) of row group
//                                 rowGroup (0-based), of the top-level
//                                 columns named (null: all)
//   {op: "range", rid, bytes}     the bytes asked for by {op: "range"}
//   {op: "range", rid, error}     or why they cannot be read
//
// Answers:
//
//   {id, meta, schema, engine}    to open: the footer (see footerMeta), the
//                                 Arrow schema as a schema-only IPC stream
//                                 (Uint8Array, transferred), the engine
//                                 ("hyparquet" or "parquet-wasm") and, for
//                                 parquet-wasm, declined: why hyparquet
//                                 does not read the file
//   {id, ipc, memory, engine}     to read: an Arrow IPC stream (Uint8Array,
//                                 transferred); memory: parquet-wasm's wasm
//                                 memory in bytes, which never shrinks (0
//                                 while it is not loaded: hyparquet's
//                                 memory is the garbage-collected heap's)
//   {id, error, trapped, engine}  why it failed; trapped: the wasm instance
//                                 trapped (RuntimeError) and is unusable;
//                                 engine: the one whose read failed
//
// Requests are answered one at a time, in the order they came.
//   {op: "range", rid, start, end}
//                                 asks the page for bytes [start, end)
//
// Nothing from the file is evaluated: names and metadata travel as strings.

// TAIL is how many bytes at the file's end opening reads at once: the
// footer and the page index before it of bench/browser's Parquet files
// (17 KB of 117 MB, 8.5 KB of a 105 MB shard) and of Hugging Face image
// shards of a few hundred row groups. At 40 Mbit/s it costs 13 ms; a
// larger footer costs one more request (a round trip, and its bytes,
// which a larger TAIL would have read anyway).
const TAIL = 64 << 10;

// The file, once opened: {size, engine, ...} (see open).
let file = null;

// Byte ranges asked of the page, by request id.
const ranges = new Map();
let nextRange = 0;

// The tail read at open, kept while the file is open (the footer and, when
// it holds them, the page index's offset indexes): {start, buf}.
let tail = null;

// A read of a window of a row group's rows fetches the same column chunks
// as the window before it when the file has no page index: the last byte
// ranges read are kept (up to keepBytes, set by open) and served again,
// whole or in part.
let keepBytes = 0;
const kept = new Map(); // "start-end" -> {start, buf}, oldest first
let keptBytes = 0;

function keep(start, buf) {
  if (buf.byteLength > keepBytes) return;
  const key = start + "-" + (start + buf.byteLength);
  if (kept.has(key)) return;
  kept.set(key, { start, buf });
  keptBytes += buf.byteLength;
  for (const [k, e] of kept) {
    if (keptBytes <= keepBytes) break;
    kept.delete(k);
    keptBytes -= e.buf.byteLength;
  }
}

// held returns bytes [start, end) from the tail or the ranges kept, or
// null (a copy: the engines may transfer or detach what they get).
function held(start, end) {
  for (const e of tail ? [tail, ...kept.values()] : kept.values()) {
    if (e.start <= start && end <= e.start + e.buf.byteLength) {
      return e.buf.slice(start - e.start, end - e.start);
    }
  }
  return null;
}

// pageRead asks the page for bytes [start, end) of a file by URL.
function pageRead(start, end) {
  return new Promise((resolve, reject) => {
    const rid = nextRange++;
    ranges.set(rid, { resolve, reject });
    postMessage({ op: "range", rid, start, end });
  });
}

// ReadError is a failure to read the file's bytes (the network, the
// Blob), not to decode them: a read that fails so does not go to the
// other engine (which would ask for the same bytes again).
class ReadError extends Error {}

// bytesAt returns a promise of bytes [start, end) of the open file (an
// ArrayBuffer), from what is held or else read (and kept).
async function bytesAt(start, end) {
  const hit = held(start, end);
  if (hit) return hit;
  // The first part kept (a column chunk's first pages, read for an
  // earlier window): only the rest is read.
  let from = start;
  let head = null;
  for (const e of kept.values()) {
    const to = e.start + e.buf.byteLength;
    if (e.start <= start && start < to && to > from) {
      from = to;
      head = e;
    }
  }
  let buf;
  try {
    buf = await file.readRaw(from, end);
  } catch (err) {
    throw new ReadError(String(err?.message ?? err));
  }
  if (buf.byteLength !== end - from) throw new ReadError(`asked for bytes ${from} to ${end}, got ${buf.byteLength}`);
  if (head) {
    const all = new Uint8Array(end - start);
    all.set(new Uint8Array(head.buf, start - head.start), 0);
    all.set(new Uint8Array(buf), from - start);
    buf = all.buffer;
  }
  keep(start, buf);
  return buf.slice(0);
}

// fileBytes is a Blob-like view of the file for parquet-wasm's
// ParquetFile.fromFile, which needs only size, slice(start, end) and
// arrayBuffer().
function fileBytes(size) {
  return {
    size,
    slice(start = 0, end = size) {
      start = Math.max(0, Math.min(size, start));
      end = Math.max(start, Math.min(size, end));
      return { size: end - start, arrayBuffer: () => bytesAt(start, end) };
    },
  };
}

// wasm loads parquet-wasm once (a promise of its module, initialised).
let wasm = null;
function loadWasm() {
  wasm ??= import("./parquet/parquet_wasm.js").then(async (m) => {
    // Node.js (the conformance test) hands the wasm's bytes over; the
    // browser fetches it next to the module.
    const bytes = globalThis.tensorviewParquetWasm;
    await m.default(bytes ? { module_or_path: bytes } : undefined);
    return m;
  });
  return wasm;
}

// wasmFile opens the file with parquet-wasm (once: a promise of its
// ParquetFile).
function wasmFile() {
  file.pf ??= loadWasm().then((m) => m.ParquetFile.fromFile(fileBytes(file.size)));
  return file.pf;
}

// Codec names by parquet-wasm's Compression enum (its order, not the
// Parquet specification's), spelled as the specification spells them.
const codecs = ["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW", "LZO"];

// footerMeta reads what the page shows of the footer (Parquet
// FileMetaData) from parquet-wasm: sizes in bytes, counts as numbers.
function wasmFooterMeta(pf) {
  const md = pf.metadata();
  const fm = md.fileMetadata();
  const meta = {
    createdBy: fm.createdBy() ?? "",
    version: fm.version(),
    keyValue: [],
    rowGroups: [],
    columns: [],
  };
  for (const [k, v] of fm.keyValueMetadata()) {
    meta.keyValue.push([String(k), v == null ? "" : String(v)]);
  }
  fm.free();
  const n = md.numRowGroups();
  for (let i = 0; i < n; i++) {
    const rg = md.rowGroup(i);
    // chunks: each leaf column's compressed bytes in this row group.
    const g = { rows: rg.numRows(), compressed: rg.compressedSize(), uncompressed: rg.totalByteSize(), chunks: [] };
    const cols = rg.columns();
    cols.forEach((c, k) => {
      if (i === 0) meta.columns.push({ path: c.columnPath().map(String), codecs: [] });
      g.chunks.push(c.compressedSize());
      const codec = codecs[c.compression()] ?? `codec ${c.compression()}`;
      const col = meta.columns[k];
      if (col && !col.codecs.includes(codec)) col.codecs.push(codec);
      c.free();
    });
    meta.rowGroups.push(g);
    rg.free();
  }
  md.free();
  return meta;
}

// footerMeta is the same from hyparquet's reading of the footer.
function footerMeta(md) {
  const meta = {
    createdBy: md.created_by ?? "",
    version: Number(md.version),
    keyValue: (md.key_value_metadata ?? []).map((e) => [String(e.key), e.value == null ? "" : String(e.value)]),
    rowGroups: [],
    columns: [],
  };
  md.row_groups.forEach((rg, i) => {
    const g = { rows: Number(rg.num_rows), compressed: 0, uncompressed: Number(rg.total_byte_size), chunks: [] };
    rg.columns.forEach((c, k) => {
      const m = c.meta_data;
      if (i === 0) meta.columns.push({ path: m.path_in_schema.map(String), codecs: [] });
      const n = Number(m.total_compressed_size);
      g.chunks.push(n);
      g.compressed += n;
      const col = meta.columns[k];
      if (col && !col.codecs.includes(m.codec)) col.codecs.push(m.codec);
    });
    meta.rowGroups.push(g);
  });
  return meta;
}

// readFooter reads the file's tail (TAIL bytes, in one read) and returns
// the footer: FileMetaData, its length and "PAR1" (a Uint8Array).
async function readFooter(size) {
  if (size < 12) throw new Error(`the file is too short to be Parquet (${size} bytes)`);
  const n = Math.min(size, TAIL);
  tail = { start: size - n, buf: await file.readRaw(size - n, size) };
  const end = new DataView(tail.buf, n - 8, 8);
  const magic = end.getUint32(4, true);
  if (magic === 0x45524150) throw new Error("the footer is encrypted (Parquet modular encryption)");
  if (magic !== 0x31524150) throw new Error("no Parquet footer: the file does not end with PAR1");
  const len = end.getUint32(0, true);
  if (len + 12 > size) throw new Error(`the footer's length (${len} bytes) is more than the file holds`);
  const from = size - 8 - len;
  if (from >= tail.start) return new Uint8Array(tail.buf, from - tail.start);
  // A footer larger than the tail: read the rest, and keep it all.
  const head = await file.readRaw(from, tail.start);
  const all = new Uint8Array(size - from);
  all.set(new Uint8Array(head), 0);
  all.set(new Uint8Array(tail.buf), head.byteLength);
  tail = { start: from, buf: all.buffer };
  return all;
}

async function open(msg) {
  keepBytes = msg.keepBytes ?? 0;
  const blob = msg.blob;
  const size = blob ? blob.size : msg.size;
  file = {
    size,
    readRaw: blob ? (start, end) => blob.slice(start, end).arrayBuffer() : pageRead,
    engine: "hyparquet",
    pf: null,
  };
  // The engine's modules load while the footer is read.
  const engine = msg.engine === "parquet-wasm" ? null : import("./parquet/engine/parquet-engine.js");
  engine?.catch(() => {}); // awaited below; a failure to load shows there
  const footer = await readFooter(size);
  let declined = msg.engine === "parquet-wasm" ? "asked for" : "";
  if (engine) {
    let eng;
    try {
      eng = await engine;
    } catch (err) {
      // openError (app/browser) passes this on as it is.
      throw new Error(`the Parquet reader's engine did not load (${err?.message ?? err})`);
    }
    let opened;
    try {
      opened = eng.open(footer);
    } catch (err) {
      opened = { declined: `hyparquet cannot read its footer (${err?.message ?? err})` };
    }
    if (!opened.declined) {
      const compressors = await eng.loadCodecs(opened.codecs);
      Object.assign(file, { eng, opened, compressors });
      const meta = footerMeta(opened.metadata);
      withStats(meta, footer, eng.parquetMetadata);
      const schema = eng.schemaIPC(opened.schema);
      return [{ id: msg.id, meta, schema, engine: "hyparquet" }, [schema.buffer]];
    }
    declined = opened.declined;
  }
  file.engine = "parquet-wasm";
  const pf = await wasmFile();
  const meta = wasmFooterMeta(pf);
  const { parquetMetadata } = await import("./parquet/hyparquet/metadata.js");
  withStats(meta, footer, parquetMetadata);
  const schema = pf.schema().intoIPCStream();
  return [{ id: msg.id, meta, schema, engine: "parquet-wasm", declined }, [schema.buffer]];
}

// Statistics as the file stores them, for the page to check against the
// columns' Arrow types: integers as decimal strings with, for dates and
// timestamps, their Parquet unit; bytes left raw, decoded below.
const rawParsers = {
  timestampFromMilliseconds: (v) => ({ int: v, unit: "ms" }),
  timestampFromMicroseconds: (v) => ({ int: v, unit: "us" }),
  timestampFromNanoseconds: (v) => ({ int: v, unit: "ns" }),
  dateFromDays: (v) => ({ int: v, unit: "d" }),
  stringFromBytes: (b) => b,
};
const utf8 = new TextDecoder("utf-8", { fatal: true });

// addStats adds to each row group of meta its column chunks' statistics
// (min_value, max_value, null_count; the deprecated min and max only for
// non-byte-array columns, whose order they got right), read with
// hyparquet's footer parser: stats[k] for leaf column k is null or
// {kind, min, max, nulls, unit} (strings; kind int, uint, float, string or
// bool).
function withStats(meta, footer, parquetMetadata) {
  try {
    addStats(meta, parquetMetadata(footer, { parsers: rawParsers, geoparquet: false }));
  } catch {
    // No statistics: every row group is read by a filter.
  }
}

function addStats(meta, md) {
  // The leaf schema elements, in column chunk order (depth first).
  const leaves = [];
  const walk = (i) => {
    const el = md.schema[i];
    if (!el) throw new Error("schema ends early");
    if (!el.num_children) {
      leaves.push(el);
      return i + 1;
    }
    let next = i + 1;
    for (let c = 0; c < el.num_children; c++) next = walk(next);
    return next;
  };
  let i = 1;
  while (i < md.schema.length) i = walk(i);
  if (md.row_groups.length !== meta.rowGroups.length) return;
  md.row_groups.forEach((rg, g) => {
    if (rg.columns.length !== leaves.length || !meta.rowGroups[g]) return;
    meta.rowGroups[g].stats = rg.columns.map((c, k) => chunkStats(c.meta_data?.statistics, leaves[k]));
  });
}

function chunkStats(st, el) {
  if (!st) return null;
  const bytes = el.type === "BYTE_ARRAY" || el.type === "FIXED_LEN_BYTE_ARRAY";
  const min = st.min_value !== undefined || bytes ? st.min_value : st.min;
  const max = st.max_value !== undefined || bytes ? st.max_value : st.max;
  const out = { nulls: st.null_count === undefined ? null : String(st.null_count), kind: null, min: null, max: null, unit: "" };
  const lt = el.logical_type?.type;
  const unsigned = el.converted_type?.startsWith("UINT_") || (lt === "INTEGER" && !el.logical_type.isSigned);
  // Integers of a date, time or timestamp type without the annotation
  // hyparquet converts: their unit from the logical type (times: none).
  const units = { MILLIS: "ms", MICROS: "us", NANOS: "ns" };
  const intUnit = lt === "DATE" ? "d" : lt === "TIMESTAMP" ? units[el.logical_type.unit] ?? "ms" : "";
  const timeOfDay = lt === "TIME" || el.converted_type?.startsWith("TIME_");
  const value = (v) => {
    if (v === undefined || v === null || timeOfDay) return null;
    if (typeof v === "boolean") return ["bool", String(v), ""];
    if (typeof v === "bigint") return [unsigned ? "uint" : "int", String(v), intUnit];
    if (typeof v === "object" && typeof v.int !== "undefined") return ["int", String(v.int), v.unit];
    if (typeof v === "number") {
      if (el.type === "FLOAT" || el.type === "DOUBLE" || lt === "FLOAT16") return ["float", String(v), ""];
      if (el.type === "INT32" && el.converted_type !== "DECIMAL" && lt !== "DECIMAL") return [unsigned ? "uint" : "int", String(v), intUnit];
      return null;
    }
    const isText = el.converted_type === "UTF8" || lt === "STRING" || lt === "ENUM";
    if (v instanceof Uint8Array && el.type === "BYTE_ARRAY" && isText) {
      try {
        return ["string", utf8.decode(v), ""];
      } catch {
        return null;
      }
    }
    return null;
  };
  const lo = value(min);
  const hi = value(max);
  if (lo && hi && lo[0] === hi[0] && lo[2] === hi[2]) {
    [out.kind, out.min, out.unit] = lo;
    out.max = hi[1];
  }
  return out;
}

// wasmRead reads with parquet-wasm.
async function wasmRead(msg) {
  const pf = await wasmFile();
  const opts = { rowGroups: [msg.rowGroup], offset: msg.offset, limit: msg.limit, batchSize: Math.max(1, Math.min(msg.limit, 8192)) };
  if (msg.columns) opts.columns = msg.columns;
  const table = await pf.read(opts);
  return table.intoIPCStream();
}

// asyncBuffer is hyparquet's view of the open file.
function asyncBuffer() {
  return { byteLength: file.size, slice: (start, end = file.size) => bytesAt(start, end) };
}

async function read(msg) {
  if (!file) throw new Error("no file is open");
  try {
    return await readWith(msg);
  } catch (err) {
    throw Object.assign(err instanceof Error ? err : new Error(String(err)), { engine: file.lastEngine });
  }
}

async function readWith(msg) {
  let ipc;
  let engine = (file.lastEngine = file.engine);
  if (engine === "hyparquet") {
    try {
      ipc = await file.eng.read(asyncBuffer(), file.opened, file.compressors, msg.rowGroup, msg.offset, msg.limit, msg.columns ?? null);
    } catch (err) {
      if (err instanceof ReadError) throw err;
      // A page hyparquet cannot decode (corrupt, or an encoding it lacks):
      // parquet-wasm reads it, or says why not.
      engine = file.lastEngine = "parquet-wasm";
    }
  }
  if (!ipc) ipc = await wasmRead(msg);
  const memory = wasm ? (await wasm).wasmMemory().buffer.byteLength : 0;
  return [{ id: msg.id, ipc, memory, engine }, [ipc.buffer]];
}

// Requests run one at a time, in order: when the wasm traps, the request
// under way (current) is the one that trapped. A trap surfaces as a
// rejection or, from inside wasm-bindgen's task queue, as an uncaught
// RuntimeError whose request then never settles.
let queue = Promise.resolve();
let current = null;

function trapped(err) {
  if (current !== null) {
    postMessage({ id: current, error: String(err?.message ?? err), trapped: true, engine: "parquet-wasm" });
    current = null;
  }
}

onmessage = (e) => {
  const msg = e.data;
  if (msg.op === "warm") {
    // Started by web/boot.js while the page's app starts: the engine
    // loads now, and open finds it loaded (or loading).
    import("./parquet/engine/parquet-engine.js").catch(() => {}); // open says why it failed
    return;
  }
  if (msg.op === "range") {
    const r = ranges.get(msg.rid);
    ranges.delete(msg.rid);
    if (r && msg.error != null) r.reject(new Error(msg.error));
    else if (r) r.resolve(msg.bytes);
    return;
  }
  queue = queue.then(async () => {
    current = msg.id;
    try {
      const [answer, transfer] = await (msg.op === "open" ? open(msg) : read(msg));
      postMessage(answer, transfer);
    } catch (err) {
      postMessage({ id: msg.id, error: String(err?.message ?? err), trapped: err instanceof WebAssembly.RuntimeError, engine: err?.engine ?? "" });
    }
    current = null;
  });
};

// An uncaught trap: the request under way failed, and the page, told it
// trapped, replaces this worker. preventDefault keeps it from the page's
// Worker error event, which is left for failures to load the reader.
addEventListener("error", (e) => {
  if (e.error instanceof WebAssembly.RuntimeError || current !== null) {
    trapped(e.error ?? e.message);
    e.preventDefault();
  }
});
addEventListener("unhandledrejection", (e) => {
  trapped(e.reason);
  e.preventDefault();
});
