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
//   {op: "early", url, size, etag, modified, probe}
//                                 after warm (web/boot.js, before the app
//                                 adopts the worker): read the footer of
//                                 the file of size bytes at url and the
//                                 first pages of row group 0 (readEarly),
//                                 which the app's open and first read then
//                                 take instead of asking for them;
//                                 answered by {op: "early", bytes, error,
//                                 probe} (probe: why the probe's bytes
//                                 did not come, or "")
//   {op: "probe", bytes}          the file's first probe bytes (or error:
//                                 why not), for readEarly
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
  kept.set(key, entry(start, buf));
  keptBytes += buf.byteLength;
  for (const [k, e] of kept) {
    if (keptBytes <= keepBytes) break;
    kept.delete(k);
    keptBytes -= e.buf.byteLength;
  }
}

// The bytes read early (readEarly: the footer, in tail, and the first
// pages of row group 0, here), held apart from kept (and from keepBytes)
// until the app's first read has taken them: {start, buf}.
let earlyPages = [];
// The early reading, while there is one: {size, footer, done} (promises
// of the footer, see readFooter, and of the end of its page reads).
let early = null;

// EARLY_ROWS is how many rows of row group 0 readEarly reads: app/decode
// reads a Parquet row group by windows of at least 8 rows (File.windowRows:
// multiples of 8, at least 8), from row 0 for the first screen, so the
// app's first read holds these rows whatever its window; more would read
// pages that a first window of 8 rows (a dataset of images) does not use.
const EARLY_ROWS = 8;
// EARLY_COLUMNS bounds the top-level columns readEarly reads (the first
// ones, in schema order: those the table shows first), EARLY_BYTES the
// bytes it fetches (past the footer): a wide or huge file reads no more
// early than a first window of a few image columns would.
const EARLY_COLUMNS = 16;
const EARLY_BYTES = 2 << 20;

// held returns bytes [start, end) from the tail or the ranges kept, or
// null (a copy: the engines may transfer or detach what they get).
function held(start, end) {
  for (const e of pieces()) {
    if (e.start <= start && end <= e.start + e.buf.byteLength) {
      return e.buf.slice(start - e.start, end - e.start);
    }
  }
  return null;
}

// pieces lists the file's bytes held: the tail, the early pages, the
// ranges kept.
function pieces() {
  return [...(tail ? [tail] : []), ...earlyPages, ...kept.values()];
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
// ArrayBuffer), from what is held or else read (and kept): only the parts
// that no range held covers are read (a column chunk's first pages, read
// early or for an earlier window, are not read again). An early read
// (spend, see readEarly) keeps what it read apart, in earlyPages. readRaw
// reads the parts (the open file's, or readEarly's own fetches: the early
// reading goes on after the app has opened the file).
async function bytesAt(start, end, spend, readRaw = file.readRaw) {
  const hit = held(start, end);
  if (hit) return hit;
  // What is held or being read, and the parts left to read (a part being
  // read for another call is awaited, not read again).
  const have = [...pieces(), ...inflight]
    .filter((e) => e.start < end && e.start + e.byteLength > start)
    .sort((a, b) => a.start - b.start);
  const gaps = [];
  let at = start;
  for (const e of have) {
    if (e.start > at) gaps.push([at, e.start]);
    at = Math.max(at, e.start + e.byteLength);
    if (at >= end) break;
  }
  if (at < end) gaps.push([at, end]);
  if (spend) spend(gaps.reduce((n, [a, b]) => n + b - a, 0));
  const reads = gaps.map(([a, b]) => {
    const e = { start: a, byteLength: b - a, buf: null };
    // It stays in inflight (its bytes, once in, as good as held) until
    // this call has stored what it read, below.
    e.read = (async () => {
      try {
        e.buf = await readRaw(a, b);
      } catch (err) {
        inflight.delete(e);
        throw new ReadError(String(err?.message ?? err));
      }
      if (e.buf.byteLength !== b - a) {
        inflight.delete(e);
        throw new ReadError(`asked for bytes ${a} to ${b}, got ${e.buf.byteLength}`);
      }
    })();
    e.read.catch(() => {}); // awaited below, and by the calls that wait for it
    inflight.add(e);
    return e;
  });
  const parts = [...have, ...reads];
  try {
    await Promise.all(parts.map((e) => e.read));
  } finally {
    queueMicrotask(() => reads.forEach((e) => inflight.delete(e))); // stored below first
  }
  let buf;
  if (parts.length === 1 && parts[0].start === start && parts[0].byteLength === end - start) {
    buf = parts[0].buf;
  } else {
    const all = new Uint8Array(end - start);
    for (const e of parts) {
      const from = Math.max(start, e.start);
      const to = Math.min(end, e.start + e.byteLength);
      if (to > from) all.set(new Uint8Array(e.buf, from - e.start, to - from), from - start);
    }
    buf = all.buffer;
  }
  if (spend) earlyPages.push(entry(start, buf));
  else keep(start, buf);
  return buf.slice(0);
}

// entry is a range of the file's bytes held: {start, byteLength, buf}.
function entry(start, buf) {
  return { start, byteLength: buf.byteLength, buf };
}

// The parts of the file being read: {start, byteLength, buf, read} (read:
// a promise that sets buf, or fails with a ReadError).
const inflight = new Set();

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

// readFooter reads the file's tail (TAIL bytes, in one read of readRaw)
// and returns the footer: FileMetaData, its length and "PAR1" (a
// Uint8Array).
async function readFooter(size, readRaw = file.readRaw) {
  if (size < 12) throw new Error(`the file is too short to be Parquet (${size} bytes)`);
  const n = Math.min(size, TAIL);
  tail = entry(size - n, await readRaw(size - n, size));
  const end = new DataView(tail.buf, n - 8, 8);
  const magic = end.getUint32(4, true);
  if (magic === 0x45524150) throw new Error("the footer is encrypted (Parquet modular encryption)");
  if (magic !== 0x31524150) throw new Error("no Parquet footer: the file does not end with PAR1");
  const len = end.getUint32(0, true);
  if (len + 12 > size) throw new Error(`the footer's length (${len} bytes) is more than the file holds`);
  const from = size - 8 - len;
  if (from >= tail.start) return new Uint8Array(tail.buf, from - tail.start);
  // A footer larger than the tail: read the rest, and keep it all.
  const head = await readRaw(from, tail.start);
  const all = new Uint8Array(size - from);
  all.set(new Uint8Array(head), 0);
  all.set(new Uint8Array(tail.buf), head.byteLength);
  tail = entry(from, all.buffer);
  return all;
}

// readEarly reads, for a file of size bytes by URL that the app will open
// (web/boot.js answering its range requests meanwhile), its footer, and of
// row group 0 the pages that hold rows [0, EARLY_ROWS) of its first
// EARLY_COLUMNS top-level columns, as the engine's read of those rows
// reads them (the pages the offset index names, else the chunks' first
// pages up to the one holding the last row, or small chunks whole), but
// for no more than EARLY_BYTES: a read past them is refused, and what was
// read stays. Open takes the footer, the app's first read the pages.
// It answers {op: "early", bytes, error} (bytes fetched past the footer).
function readEarly(msg) {
  if (file || early) return;
  const size = msg.size;
  const readRaw = (start, end) => fetchRange(msg, start, end);
  file = { size, readRaw, engine: "hyparquet", pf: null };
  // The probe's bytes come from the page (web/boot.js has them): the
  // reads that need them wait.
  const probe = { start: 0, byteLength: Math.min(msg.probe, size), buf: null };
  probe.read = new Promise((resolve, reject) => (probeSent = { resolve, reject })).then((buf) => {
    if (buf.byteLength !== probe.byteLength) throw new ReadError(`the first ${probe.byteLength} bytes came as ${buf.byteLength}`);
    probe.buf = buf;
    earlyPages.push(probe);
  }).finally(() => inflight.delete(probe));
  probe.read.catch(() => {});
  inflight.add(probe);
  const engine = import("./parquet/engine/parquet-engine.js");
  // The tail but what the probe holds (bytesAt waits for it).
  const footer = readFooter(size, (start, end) => bytesAt(start, end, null, readRaw));
  footer.catch(() => {}); // open reads it again
  let bytes = 0;
  const spend = (n) => {
    if (bytes + n > EARLY_BYTES) throw new Error(`more than ${EARLY_BYTES} bytes`);
    bytes += n;
  };
  const reads = [];
  let me = null; // early, once set below
  const buffer = {
    byteLength: size,
    slice(start, end = size) {
      // Once the app reads, its read decodes the rows: this one asks for
      // no more bytes, and stops at the next ones instead of decoding
      // them too (the worker runs one thing at a time).
      if (me?.wanted) return Promise.reject(new Error("the app reads the rows"));
      const p = bytesAt(start, end, spend, readRaw);
      reads.push(p.catch(() => {}));
      return p.then((b) => {
        if (me?.wanted) throw new Error("the app reads the rows");
        return b;
      });
    },
  };
  const done = (async () => {
    const eng = await engine;
    const opened = eng.open(await footer);
    if (opened.declined || !opened.metadata.row_groups.length) return;
    const compressors = await eng.loadCodecs(opened.codecs);
    // The probe's bytes first: what they hold is not fetched.
    await probe.read.catch(() => {});
    const names = opened.schema.fields.slice(0, EARLY_COLUMNS).map((f) => f.name);
    await eng.read(buffer, opened, compressors, 0, 0, EARLY_ROWS, names);
  })().then(
    () => "",
    (err) => String(err?.message ?? err),
  );
  // fetched: every read started has ended (a refused or failed one
  // leaves others under way), for the app's first read to take what is
  // held (done: and the early reading has ended).
  const fetched = async () => {
    for (let n = 0; n < reads.length; ) {
      const m = reads.length;
      await Promise.all(reads.slice(n, m));
      n = m;
    }
  };
  early = me = { size, footer, fetched, wanted: false, done: done.then(async (error) => {
    await fetched();
    const sent = await probe.read.then(() => "", (err) => String(err?.message ?? err));
    postMessage({ op: "early", bytes, error, probe: sent });
  }) };
}

// probeSent settles readEarly's wait for the probe's bytes.
let probeSent = null;

// fetchRange fetches bytes [start, end) of the file at.url as the page
// would (a GET of that single range, no other header: no CORS preflight;
// past the browser's HTTP cache, as app/browser.Fetcher's),
// for readEarly: the answer must be 206, of those bytes, with the
// validators the probe had (at.etag, at.modified: the same file).
async function fetchRange(at, start, end) {
  const r = await fetch(at.url, { headers: { Range: `bytes=${start}-${end - 1}` }, cache: "no-store" });
  if (r.status !== 206) throw new Error(`HTTP ${r.status} to a range request`);
  if ((at.etag && r.headers.get("etag") !== at.etag) || (at.modified && r.headers.get("last-modified") !== at.modified)) {
    throw new Error("the file changed since its first bytes were read");
  }
  return r.arrayBuffer();
}

async function open(msg) {
  keepBytes = msg.keepBytes ?? 0;
  const blob = msg.blob;
  const size = blob ? blob.size : msg.size;
  // What was read early is this file's when it was read for the same size
  // (web/boot.js asked for it from the same address, the app's).
  let footer = null;
  if (early && !blob && early.size === size) footer = await early.footer.catch(() => null);
  if (!footer) {
    early = null;
    earlyPages = [];
    tail = null;
  }
  file = {
    size,
    readRaw: blob ? (start, end) => blob.slice(start, end).arrayBuffer() : pageRead,
    engine: "hyparquet",
    pf: null,
  };
  // The engine's modules load while the footer is read.
  const engine = msg.engine === "parquet-wasm" ? null : import("./parquet/engine/parquet-engine.js");
  engine?.catch(() => {}); // awaited below; a failure to load shows there
  footer ??= await readFooter(size);
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
  if (early) {
    // The first read takes the pages read early (waiting for those under
    // way, not for the early reading's decoding), then they go: kept
    // holds what the reads read next.
    early.wanted = true;
    await early.fetched();
    early = null;
    try {
      return await readAll(msg);
    } finally {
      // Kept for the next reads as the ranges this one read are.
      for (const e of earlyPages) keep(e.start, e.buf);
      earlyPages = [];
    }
  }
  return readAll(msg);
}

async function readAll(msg) {
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
  if (msg.op === "early") {
    readEarly(msg);
    return;
  }
  if (msg.op === "probe") {
    if (msg.error != null) probeSent?.reject(new ReadError(msg.error));
    else probeSent?.resolve(msg.bytes);
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
