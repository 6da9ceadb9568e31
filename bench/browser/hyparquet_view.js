// The hf layout's hyparquet viewer (hfrun.go serves it as
// /bench/hyparquet-view.js under /bench/hyparquet.html, with hyparquet and
// its compressors from bench/browser/node_modules on the same origin, as
// npm ships them: ES modules, not bundled). What a page built on hyparquet
// does for a first screen:
//
//   - import hyparquet (at once, from the navigation's start);
//   - by URL (?url=): asyncBufferFromUrl (a HEAD request for the length,
//     then HTTP Range requests); dropped: the File chosen through the file
//     input as an AsyncBuffer (File.slice(…).arrayBuffer());
//   - parquetMetadataAsync, then hyparquet-compressors imported only when a
//     column's codec is neither UNCOMPRESSED nor SNAPPY (hyparquet has
//     snappy);
//   - parquetReadObjects of rows [0, rows) (?rows=, 8) of every top-level
//     column, with useOffsetIndex (the page index, when the file has one,
//     narrows the pages read) and utf8: false (binary stays binary: the
//     JPEGs; columns annotated as strings are still strings);
//   - the rows' cells as text in a table, and the first row's image drawn
//     on a canvas: an encoded image (Hugging Face's Image struct {bytes,
//     path}, or binary) through createImageBitmap, a tensor (?shape=H,W,C,
//     row-major uint8) through ImageData;
//   - the frame that shows it (page.js __bench.painted).
//
// window.__hp resolves with {ms, domMs, at, rows, …}: ms from the
// navigation's start (by URL) or from the file input's change (dropped) to
// that frame, domMs to the canvas drawn, at that frame's time in ms since
// the epoch (for the server's timeline), what the first row held (checked
// by hfrun.go), or {error}. window.__hpReady resolves once hyparquet is
// imported.
const q = new URLSearchParams(location.search);
const rows = Number(q.get('rows') || 8);
const imageCol = q.get('image') || 'image';
const shape = q.get('shape') ? q.get('shape').split(',').map(Number) : null;
const engine = import('hyparquet');
window.__hpReady = engine.then(() => true, (e) => String(e));

// cell is a short text of a value for the table.
function cell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return v.length !== undefined ? `[${v.length}]` : '{…}';
  return String(v).slice(0, 60);
}

async function show(file) {
  const { parquetMetadataAsync, parquetReadObjects, parquetSchema } = await engine;
  const metadata = await parquetMetadataAsync(file);
  let compressors;
  const codecs = new Set(metadata.row_groups.flatMap((g) => g.columns.map((c) => c.meta_data.codec)));
  if ([...codecs].some((c) => c !== 'UNCOMPRESSED' && c !== 'SNAPPY')) {
    ({ compressors } = await import('hyparquet-compressors'));
  }
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const objs = await parquetReadObjects({ file, metadata, columns, rowStart: 0, rowEnd: rows, compressors, useOffsetIndex: true, utf8: false });
  const table = document.getElementById('rows');
  for (const o of objs) {
    const tr = table.insertRow();
    for (const c of columns) tr.insertCell().textContent = c === imageCol ? '' : cell(o[c]);
  }
  const v = objs[0][imageCol];
  const canvas = document.getElementById('first');
  const ctx = canvas.getContext('2d');
  const out = { rows: objs.length };
  if (shape) {
    const [h, w, ch] = shape;
    const img = new ImageData(w, h);
    for (let i = 0, j = 0; i < w * h; i++, j += ch) {
      img.data[4 * i] = v[j];
      img.data[4 * i + 1] = v[j + 1];
      img.data[4 * i + 2] = v[j + 2];
      img.data[4 * i + 3] = 255;
    }
    canvas.width = w;
    canvas.height = h;
    ctx.putImageData(img, 0, 0);
    out.id = Number(objs[0].id);
    out.pixels = [v[0], v[1], v[2], v[h * w * ch - 1]];
  } else {
    const bytes = v && v.bytes !== undefined ? v.bytes : v;
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
    canvas.width = bmp.width;
    canvas.height = bmp.height;
    ctx.drawImage(bmp, 0, 0);
    out.width = bmp.width;
    out.height = bmp.height;
    out.imageBytes = bytes.length;
    out.label = Number(objs[0].label);
    out.caption = objs[0].caption;
  }
  return out;
}

function timed(p, t0) {
  return p.then(async (out) => {
    const drawn = performance.now();
    const shown = await window.__bench.painted(drawn);
    return { ...out, ms: shown - t0, domMs: drawn - t0, at: performance.timeOrigin + shown, origin: performance.timeOrigin };
  }, (e) => ({ error: String((e && e.message) || e) }));
}

if (q.get('url')) {
  window.__hp = timed(engine.then(async ({ asyncBufferFromUrl }) => show(await asyncBufferFromUrl({ url: q.get('url') }))), 0);
} else {
  document.querySelector('input[type=file]').addEventListener('change', (e) => {
    const t0 = performance.now();
    const f = e.target.files[0];
    const file = { byteLength: f.size, slice: (start, end) => f.slice(start, end).arrayBuffer() };
    window.__hp = timed(show(file), t0);
  });
}
