// Injected into every page the benchmark opens, before the page's own
// scripts: keeps the WebAssembly instance go-app's app.js creates (its Go
// object is a local variable) and defines the measuring helpers.
(() => {
  const keep = (p) => p.then((r) => {
    const inst = r && (r.instance || r);
    if (inst && inst.exports && inst.exports.mem) window.__benchWasm = inst;
    return r;
  });
  const is = WebAssembly.instantiateStreaming;
  if (is) WebAssembly.instantiateStreaming = function () { return keep(is.apply(this, arguments)); };
  const i = WebAssembly.instantiate;
  WebAssembly.instantiate = function () { return keep(i.apply(this, arguments)); };

  // The time the file input last changed (SetUploadFiles fires change), or
  // the Open URL form was submitted.
  window.__benchChange = null;
  window.addEventListener('change', (e) => {
    if (e.target && e.target.type === 'file' && e.target.dataset.bench !== 'floor') window.__benchChange = performance.now();
  }, true);
  window.addEventListener('submit', (e) => {
    if (e.target && e.target.dataset && e.target.dataset.role === 'url-form') window.__benchChange = performance.now();
  }, true);

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // The bytes the page read from Blobs (a dropped or chosen file: tensorview
  // reads one with Blob.slice(…).arrayBuffer() on the main thread; its
  // Parquet worker's reads are not seen here).
  window.__benchBlobBytes = 0;
  const blobBuffer = Blob.prototype.arrayBuffer;
  Blob.prototype.arrayBuffer = function () {
    return blobBuffer.call(this).then((b) => { window.__benchBlobBytes += b.byteLength; return b; });
  };

  // Long animation frames (over 50 ms; Chromium 123+): when each frame's
  // rendering started and when it ended, to time a frame's paint without
  // the tasks that run after it.
  const frames = [];
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) frames.push(e); })
      .observe({ type: 'long-animation-frame', buffered: true });
  } catch (e) { /* not supported: painted falls back to the next frame's callback */ }
  // Long tasks (over 50 ms) of the page's main thread, as Chromium reports
  // them (PerformanceObserver 'longtask'), with their start and duration.
  const long = [];
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) long.push({ start: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no Long Tasks API: counts stay 0 */ }
  // longTasks counts the long tasks that started in [from, to] and gives
  // the longest one's duration.
  const longTasks = (from, to) => {
    let n = 0, maxMs = 0;
    for (const t of long) {
      if (t.start >= from && t.start <= to) { n++; maxMs = Math.max(maxMs, t.ms); }
    }
    return { longTasks: n, longMaxMs: maxMs };
  };

  // firstRow reads the first image value of an apache-arrow table into r,
  // with the time since t0, its rows and batches, and keeps the table alive
  // for the memory reading.
  const firstRow = (r, table, t0) => {
    const row = table.get(0);
    const img = row && row.image;
    r.firstValue = img && img.get ? img.get(0) : null;
    r.firstRowMs = performance.now() - t0;
    r.rows = table.numRows;
    r.batches = table.batches.length;
    window.__benchKeep = table;
  };

  window.__bench = {
    sleep,
    // waitFor resolves with {t, v} when fn() returns a truthy v (checked on
    // every DOM change and every 50 ms), or {t, timeout: true}.
    waitFor(fn, timeoutMs) {
      return new Promise((resolve) => {
        let obs, iv, to;
        const done = (r) => { obs && obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(r); };
        const check = () => {
          let v;
          try { v = fn(); } catch (e) { v = null; }
          if (v) { done({ t: performance.now(), v }); return true; }
          return false;
        };
        if (check()) return;
        obs = new MutationObserver(check);
        obs.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
        iv = setInterval(check, 50);
        to = setTimeout(() => done({ t: performance.now(), timeout: true }), timeoutMs);
      });
    },

    // indexed waits, after the first previews, until no indexing progress
    // bar is left (the row count is exact), and gives the long tasks from
    // the file's choice until the first previews (opening) and from then
    // until indexed (indexing in the background; none when the file was
    // indexed by then).
    async indexed(timeoutMs) {
      const r = await this.waitFor(() => !document.querySelector('[data-role=progress][data-task=index]') && document.querySelector('[data-row]') ? 'ok' : this.alert(), timeoutMs);
      // Long tasks are reported once they end: wait a frame for the last.
      await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      const t0 = window.__benchChange === null ? 0 : window.__benchChange;
      const first = window.__benchFirstAt || t0;
      const open = longTasks(t0, first), index = longTasks(first + 0.001, Math.max(first, r.t));
      return { ms: r.t - t0, timeout: !!r.timeout, error: r.v && r.v.error || '',
        openLongTasks: open.longTasks, openLongMaxMs: open.longMaxMs, longTasks: index.longTasks, longMaxMs: index.longMaxMs };
    },

    alert() {
      const a = document.querySelector('[role=alert]');
      return a ? { error: a.textContent.trim() } : null;
    },

    // drawn is the preview canvas of the rows matching sel once it shows
    // its picture: at once for previews Go draws, once the browser has
    // decoded it for images from bytes (data-image-format; its first
    // pixel's alpha is then set). The empty page's hidden warm-up table
    // (app/ui/warmup.go, .warm-up) is not the file's.
    drawn(sel) {
      const c = [...document.querySelectorAll(sel + ' canvas[data-preview]')].find((e) => !e.closest('.warm-up'));
      if (!c || !c.dataset.imageFormat) return c;
      return c.getContext('2d').getImageData(0, 0, 1, 1).data[3] > 0 ? c : null;
    },

    // painted resolves with the time the browser finished rendering (on
    // the main thread: style, layout, paint) the first frame after time t:
    // the end of that frame's long-animation-frame entry, or for a frame
    // under 50 ms (no entry), the time the next frame's callback ran.
    // The frame is the one whose requestAnimationFrame callbacks run first
    // after t. The observer reports its entry some time after the frame,
    // later still on a busy page: painted waits for it (up to a second)
    // rather than take a later frame's entry or the fallback.
    async painted(t) {
      const raf = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
      const next = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
      const until = performance.now() + 1000;
      for (;;) {
        await sleep(0); // let the observer have its entries
        const f = frames.find((e) => e.renderStart >= t && e.renderStart <= raf);
        if (f) return f.startTime + f.duration;
        // A later frame's entry came first: that frame was under 50 ms.
        if (frames.some((e) => e.renderStart > raf) || performance.now() > until) return next;
        await sleep(20);
      }
    },

    // firstPreviews waits, after the file input changed, for row 0 with a
    // preview drawn (or an alert), then for the frame that shows it: ms is
    // the time to that frame, domMs to the canvas being in the page.
    async firstPreviews(timeoutMs) {
      const r = await this.waitFor(() => this.drawn('[data-row="0"]') ? 'ok' : this.alert(), timeoutMs);
      const shown = r.timeout ? r.t : await this.painted(r.t);
      const t0 = window.__benchChange;
      window.__benchFirstAt = shown;
      return { ms: t0 === null ? -1 : shown - t0, domMs: t0 === null ? -1 : r.t - t0, timeout: !!r.timeout, error: r.v && r.v.error || '',
        rowsTitle: (document.querySelector('.rows h2') || {}).textContent || '' };
    },

    // watchLink, run at a document's start (the dataset layout adds it to
    // the page before navigating to a link), times the link's first
    // previews from the navigation's start: row 0 with its preview drawn,
    // then the frame that shows it (as firstPreviews). It resolves
    // window.__benchLink with ms (that frame), domMs (the canvas in the
    // page) and at (the frame's time as ms since the epoch, for the
    // server's timeline), or the page's error: a [role=alert] that is not
    // one of the file's warnings (a dataset's notes are warnings).
    watchLink(timeoutMs) {
      const failed = () => {
        const a = [...document.querySelectorAll('[role=alert]')].find((e) => !e.closest('[data-role=file-warnings]'));
        return a ? { error: a.textContent.trim() } : null;
      };
      window.__benchFailed = failed;
      window.__benchLink = (async () => {
        if (document.readyState === 'loading') await new Promise((r) => document.addEventListener('DOMContentLoaded', r, { once: true }));
        const r = await this.waitFor(() => this.drawn('[data-row="0"]') ? 'ok' : failed(), timeoutMs);
        const shown = r.timeout ? r.t : await this.painted(r.t);
        window.__benchFirstAt = shown;
        return { ms: shown, domMs: r.t, at: performance.timeOrigin + shown, timeout: !!r.timeout, error: r.v && r.v.error || '' };
      })();
    },

    // allOpen waits, after watchLink's first previews, for the row count
    // to be exact (a dataset: every file open): ms since the navigation's
    // start, at as ms since the epoch, rows the count shown.
    async allOpen(timeoutMs) {
      const sel = '[data-role=num-rows][data-exact=true]';
      const r = await this.waitFor(() => document.querySelector(sel) || window.__benchFailed(), timeoutMs);
      if (r.timeout || (r.v && r.v.error)) return { timeout: !!r.timeout, error: r.v && r.v.error || '' };
      return { ms: r.t, at: performance.timeOrigin + r.t, rows: +r.v.textContent.replace(/[^0-9]/g, '') };
    },

    // linkMarks is, in ms from the navigation's start, the page's own
    // performance marks "tv:…" (a perfmarks build; the first of each
    // name), when app.wasm finished downloading (res:app.wasm) and when the
    // page first asked the dataset's servers for anything from its main
    // thread (res:first-data: a shard, a list of links, the Hub's API).
    linkMarks() {
      const out = {};
      for (const m of performance.getEntriesByType('mark')) {
        if (m.name.startsWith('tv:') && !(m.name in out)) out[m.name] = m.startTime;
      }
      for (const e of performance.getEntriesByType('resource')) {
        const path = new URL(e.name).pathname;
        if (path.endsWith('/app.wasm')) out['res:app.wasm'] = e.responseEnd;
        if (/^\/(bench\/shards|api\/datasets|datasets|repos)\//.test(path) && !('res:first-data' in out)) out['res:first-data'] = e.startTime;
      }
      return out;
    },

    // floorFile measures the I/O floor of a first screen: once a file input
    // of its own (input[data-bench=floor], added outside go-app's elements)
    // changes, the time from that change event to having read the file's
    // last 64 KiB and then its first 4 MiB with File.slice(...).arrayBuffer()
    // and nothing else. It resolves window.__benchFloor; the input is removed
    // then.
    floorFile(timeoutMs) {
      const input = document.createElement('input');
      input.type = 'file';
      input.dataset.bench = 'floor';
      input.style.display = 'none';
      document.documentElement.appendChild(input);
      window.__benchFloor = new Promise((resolve) => {
        const timer = setTimeout(() => { input.remove(); resolve({ timeout: true }); }, timeoutMs);
        input.addEventListener('change', async (e) => {
          const t0 = performance.now();
          const r = {};
          try {
            const f = input.files[0];
            const tail = await f.slice(Math.max(0, f.size - 65536), f.size).arrayBuffer();
            const head = await f.slice(0, Math.min(f.size, 4 << 20)).arrayBuffer();
            r.bytes = tail.byteLength + head.byteLength;
            r.ms = performance.now() - t0;
          } catch (err) {
            r.error = `${err && err.name}: ${err && err.message}`;
          }
          clearTimeout(timer);
          input.remove();
          resolve(r);
        }, { once: true });
      });
      return true;
    },

    // floorURL is floorFile's measure for a file by URL: two HTTP Range
    // requests, the last 64 KiB then the first 4 MiB, read to their end.
    async floorURL(url, size, timeoutMs) {
      const t0 = performance.now();
      const get = async (from, to) => {
        // no-store: neither served from nor kept in the HTTP cache, which
        // would hand tensorview's reads these bytes.
        const resp = await fetch(url, { cache: 'no-store', headers: { Range: `bytes=${from}-${to - 1}` } });
        if (resp.status !== 206) throw new Error(`HTTP ${resp.status} for a Range request`);
        return (await resp.arrayBuffer()).byteLength;
      };
      const timeout = new Promise((resolve) => setTimeout(() => resolve({ timeout: true }), timeoutMs));
      const read = (async () => {
        const n = await get(Math.max(0, size - 65536), size) + await get(0, Math.min(size, 4 << 20));
        return { ms: performance.now() - t0, bytes: n };
      })().catch((err) => ({ error: `${err && err.name}: ${err && err.message}` }));
      return Promise.race([read, timeout]);
    },

    // jumpToLast scrolls the rows to the end and waits for the last row, then
    // its preview.
    async jumpToLast(last, timeoutMs) {
      const v = document.querySelector('[data-role=rows]');
      if (!v) return { error: 'no [data-role=rows]' };
      const t0 = performance.now();
      v.scrollTop = v.scrollHeight;
      const sel = `[data-row="${last}"]`;
      const row = await this.waitFor(() => document.querySelector(sel) || this.alert(), timeoutMs);
      if (row.timeout || (row.v && row.v.error)) return { timeout: !!row.timeout, error: row.v && row.v.error || '' };
      const pv = await this.waitFor(() => this.drawn(sel) || this.alert(), timeoutMs);
      return { rowMs: row.t - t0, previewMs: pv.timeout ? -1 : pv.t - t0, error: pv.v && pv.v.error || '' };
    },

    // scrollFrames scrolls the rows from the top at pxPerSec (back up at the
    // end) for ms milliseconds, one step per animation frame, and returns
    // the frame intervals.
    async scrollFrames(ms, pxPerSec) {
      const v = document.querySelector('[data-role=rows]');
      if (!v) return { error: 'no [data-role=rows]' };
      v.scrollTop = 0;
      await sleep(500);
      const range = v.scrollHeight - v.clientHeight;
      const times = [];
      const t0 = performance.now();
      let loadingRows = 0; // rows showing "loading…", summed over the frames
      await new Promise((resolve) => {
        let start = null;
        const frame = (ts) => {
          if (start === null) start = ts;
          times.push(ts);
          loadingRows += document.querySelectorAll('[data-row][data-loading]').length;
          const el = ts - start;
          let pos = el / 1000 * pxPerSec;
          if (range > 0) { pos %= 2 * range; if (pos > range) pos = 2 * range - pos; } else pos = 0;
          v.scrollTop = pos;
          if (el < ms) requestAnimationFrame(frame); else resolve();
        };
        requestAnimationFrame(frame);
      });
      const d = [];
      for (let k = 1; k < times.length; k++) d.push(times[k] - times[k - 1]);
      d.sort((a, b) => a - b);
      const q = (p) => d.length ? d[Math.min(d.length - 1, Math.floor(p * d.length))] : 0;
      // Long tasks are reported once they end: wait a frame for the last.
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const lt = longTasks(t0, times.length ? times[times.length - 1] : t0);
      // A perfmarks build marks every preview drawn and every render of
      // the rows table.
      const count = (name) => performance.getEntriesByName(name).filter((m) => m.startTime >= t0).length;
      return { loadingRows, previewsDrawn: count('tv:preview-drawn'), rowsRenders: count('tv:rows-render'), frames: d.length, maxMs: d.length ? d[d.length - 1] : 0, p95Ms: q(0.95), p50Ms: q(0.5),
        longTasks: lt.longTasks, longMaxMs: lt.longMaxMs,
        rowsSeen: document.querySelectorAll('[data-row] canvas[data-preview]').length, scrolledPx: Math.min(range, ms / 1000 * pxPerSec) };
    },

    // openURL opens url through the page's Open URL form, as a person would
    // (the form is unfolded first; submitting records the start time).
    async openURL(url) {
      const button = document.querySelector('[data-action=open-url]');
      if (button && !document.querySelector('[data-role=url-input]')) button.click();
      const r = await this.waitFor(() => document.querySelector('[data-role=url-input]'), 10000);
      if (r.timeout) return { error: 'no [data-role=url-input] after Open URL…' };
      const input = r.v;
      input.value = url;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await sleep(50); // let go-app's input handler run before the submit
      input.form.requestSubmit();
      return {};
    },

    // marks returns the page's performance marks named "tv:…" (set by a
    // build with the perfmarks tag), in ms after the file input's change
    // event or the Open URL form's submit: the first time each was set.
    marks() {
      const t0 = window.__benchChange;
      const out = {};
      if (t0 === null) return out;
      for (const m of performance.getEntriesByType('mark')) {
        if (m.name.startsWith('tv:') && m.startTime >= t0 && !(m.name in out)) out[m.name] = m.startTime - t0;
      }
      return out;
    },

    // queryScreen waits, once a sort or filter was asked for (by a link,
    // or a link's query for the file dropped next), for its first screen:
    // the row count's data-query running (a filter) or done (a sort) with
    // the row at position 0 and every row in the page showing its data (no
    // data-loading), then for the frame that shows it; and then until the
    // query is done (a filter: data-matches set) with its screen shown.
    // Times are ms after window.__benchChange (the file input's change) or,
    // by a link, after the navigation started (0). opened is when the row
    // count first showed (the file open); rows the positions shown, each
    // {pos, row} (the row's number in the file); longTasks and longMaxMs
    // the main thread's long tasks until done.
    async queryScreen(kind, timeoutMs) {
      const t0 = window.__benchChange === null ? 0 : window.__benchChange;
      const deadline = performance.now() + timeoutMs;
      const count = () => document.querySelector('[data-role=num-rows]');
      let opened = -1, openedAt = 0;
      const screen = () => {
        const r0 = document.querySelector('[data-pos="0"]');
        return r0 && !r0.hasAttribute('data-loading') && !document.querySelector('[data-pos][data-loading]');
      };
      const state = (wantDone) => {
        const n = count();
        if (n && opened < 0) { openedAt = performance.now(); opened = openedAt - t0; performance.mark('bench:opened'); }
        const q = n && n.dataset.query;
        if (q === 'error' || q === 'cancelled') {
          const e = document.querySelector('[data-role=query-error]');
          return { error: `query ${q}` + (e ? `: ${e.textContent.trim()}` : '') };
        }
        const done = q === 'done' && (kind !== 'filter' || n.dataset.matches !== undefined);
        if ((done || (!wantDone && kind === 'filter' && q === 'running')) && screen()) return 'ok';
        return this.alert();
      };
      const rows = () => [...document.querySelectorAll('[data-pos]')]
        .map((r) => ({ pos: +r.dataset.pos, row: +r.dataset.row }))
        .sort((a, b) => a.pos - b.pos);
      const out = { opened: -1 };
      const first = await this.waitFor(() => state(false), timeoutMs);
      if (first.timeout || first.v.error) return { timeout: !!first.timeout, error: first.v && first.v.error || '', opened };
      out.firstRows = rows();
      out.firstMs = await this.painted(first.t) - t0;
      out.firstBlobBytes = window.__benchBlobBytes;
      const done = await this.waitFor(() => state(true), Math.max(0, deadline - performance.now()));
      if (done.timeout || done.v.error) return { ...out, timeout: !!done.timeout, error: done.v && done.v.error || '', opened };
      const shown = await this.painted(done.t);
      out.doneMs = shown - t0;
      performance.mark('bench:done');
      out.rows = rows();
      const n = count();
      out.matches = n.dataset.matches === undefined ? -1 : +n.dataset.matches;
      out.blobBytes = window.__benchBlobBytes;
      out.opened = opened;
      // Long tasks are reported once they end: wait a frame for the last.
      await new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      const lt = longTasks(openedAt, shown);
      out.longTasks = lt.longTasks;
      out.longMaxMs = lt.longMaxMs;
      return out;
    },

    memory() {
      const c = document.querySelector('[data-role=cache]');
      return {
        wasmBytes: window.__benchWasm ? window.__benchWasm.exports.mem.buffer.byteLength : -1,
        jsHeapBytes: performance.memory ? performance.memory.usedJSHeapSize : -1,
        cacheBytes: c ? c.dataset.bytes || '' : '',
        cacheBudget: c ? c.dataset.budget || '' : '',
      };
    },

    // arrowJSURL reads url with apache-arrow as its documentation shows,
    // tableFromIPC(await fetch(url)), then the first row.
    async arrowJSURL(url, timeoutMs) {
      const t0 = performance.now();
      const r = {};
      const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
      try {
        const table = await Promise.race([Arrow.tableFromIPC(fetch(url)), timeout]);
        if (table === 'timeout') return { timeout: true };
        r.readMs = performance.now() - t0;
        firstRow(r, table, t0);
      } catch (e) {
        r.error = `${e && e.name}: ${e && e.message}`;
        r.failMs = performance.now() - t0;
      }
      r.jsHeapBytes = performance.memory ? performance.memory.usedJSHeapSize : -1;
      return r;
    },

    // parquetWhole reads a whole Parquet file with parquet-wasm, as the
    // page parquetwasm.html loads it (window.__pw): readParquet of all of
    // its bytes, then the first row of the first record batch through
    // apache-arrow (the batch as an IPC stream). getBytes resolves with the
    // file's bytes.
    async parquetWhole(getBytes) {
      const pw = window.__pw;
      const t0 = performance.now();
      const r = {};
      try {
        const bytes = new Uint8Array(await getBytes());
        r.readMs = performance.now() - t0;
        const table = pw.readParquet(bytes);
        r.batches = table.numBatches;
        r.rows = table.recordBatches().reduce((n, b) => n + b.numRows, 0);
        const first = Arrow.tableFromIPC(table.recordBatch(0).intoIPCStream());
        const row = first.get(0);
        const img = row && row.image;
        r.firstValue = img && img.get ? img.get(0) : null;
        r.firstRowMs = performance.now() - t0;
        window.__benchKeep = table; // keep it alive for the memory reading
      } catch (e) {
        r.error = `${e && e.name}: ${e && e.message}`;
        r.failMs = performance.now() - t0;
      }
      r.jsHeapBytes = performance.memory ? performance.memory.usedJSHeapSize : -1;
      r.wasmBytes = pw.wasmMemory().buffer.byteLength;
      return r;
    },

    // parquetWholeFile waits for the file input to change, then reads the
    // chosen file whole with parquet-wasm (parquetWhole).
    parquetWholeFile(timeoutMs) {
      const input = document.querySelector('input[type=file]');
      window.__benchArrow = new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ timeout: true }), timeoutMs);
        input.addEventListener('change', async () => {
          const r = await this.parquetWhole(() => input.files[0].arrayBuffer());
          clearTimeout(timer);
          resolve(r);
        }, { once: true });
      });
      return true;
    },

    // parquetWholeURL downloads url whole and reads it with parquet-wasm
    // (parquetWhole), as arrowJSURL does with apache-arrow.
    async parquetWholeURL(url, timeoutMs) {
      const timeout = new Promise((resolve) => setTimeout(() => resolve({ timeout: true }), timeoutMs));
      return Promise.race([this.parquetWhole(async () => (await fetch(url)).arrayBuffer()), timeout]);
    },

    // arrowJS reads the file of the input with apache-arrow once it is
    // chosen: tableFromIPC on the whole ArrayBuffer, then the first row.
    arrowJS(timeoutMs) {
      const input = document.querySelector('input[type=file]');
      window.__benchArrow = new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ timeout: true }), timeoutMs);
        input.addEventListener('change', async () => {
          const t0 = performance.now();
          const r = {};
          try {
            const buf = await input.files[0].arrayBuffer();
            r.readMs = performance.now() - t0;
            firstRow(r, Arrow.tableFromIPC(new Uint8Array(buf)), t0);
          } catch (e) {
            r.error = `${e && e.name}: ${e && e.message}`;
            r.failMs = performance.now() - t0;
          }
          r.jsHeapBytes = performance.memory ? performance.memory.usedJSHeapSize : -1;
          clearTimeout(timer);
          resolve(r);
        }, { once: true });
      });
      return true;
    },
  };
})();
