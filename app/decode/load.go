package decode

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// This file names the row window (a record batch read whole, or a window of
// its rows) that holds a row, and loads windows through the batch cache.

// where says which row window holds row, the row's index there, and what
// is known of its record batch.
func (f *File) where(row int64) (key cacheKey, local int, b batchInfo, ok bool) {
	i, l, ok := f.index.locate(row)
	if !ok {
		return key, 0, b, false
	}
	b, _, _ = f.index.batchAt(i)
	if w, _ := f.windowRows(b); w > 0 {
		return cacheKey{i, l / int(w), f.cacheID}, l % int(w), b, true
	}
	return cacheKey{i, -1, f.cacheID}, l, b, true
}

// windowRows returns how many rows of batch b a row window holds, in
// multiples of 8, or 0 when the batch is read whole: a batch larger than
// 16 MiB or a quarter of the budget by windows of about 2 MiB
// (batchInfo.windowRows); with Options.RowWindow, a smaller one of an IPC
// file or stream, or a Parquet row group, by windows of about RowWindow
// bytes (small), unless its body is known to be compressed or its layout
// has no windows, or a window would hold every row. (A Parquet reader asks
// for a window's rows only the pages that hold them, through the offset
// index when the file has one, else from the column chunks' starts.)
func (f *File) windowRows(b batchInfo) (w int64, small bool) {
	if w = b.windowRows(f.budget); w > 0 {
		return w, false
	}
	if f.rowWindow <= 0 || f.Format == IPCTensor || b.whole || (b.compressed && f.pq == nil) || b.rows <= 0 {
		return 0, false
	}
	perRow := max(1, b.length/b.rows)
	if w = max(8, f.rowWindow/perRow/8*8); w >= b.rows {
		return 0, false
	}
	return w, true
}

// Locate returns the record batch holding global row and the row's index
// in it, reading the batch's header (a few hundred bytes) when its row
// count is unknown; ok is false when row is out of range or in a part not
// yet indexed. While row counts are estimated the answer may change after
// Index.
func (f *File) Locate(row int64) (batch, local int, ok bool) {
	if f.set != nil {
		return f.set.locateBatch(row)
	}
	return f.index.locate(row)
}

// Window names the row window that holds row, the unit in which rows are
// read and cached: its record batch, and the window of rows within it (-1
// when the batch is read whole: a record batch up to 16 MiB and a quarter
// of the cache budget, unless Options.RowWindow is set, or one whose layout
// or compressed body is not read by windows). ok is false as for Locate.
func (f *File) Window(row int64) (batch, window int, ok bool) {
	if f.set != nil {
		batch, window, _, _, ok = f.set.where(row)
		return batch, window, ok
	}
	key, _, _, ok := f.where(row)
	return key.batch, key.window, ok
}

// WindowBytes returns about how many bytes of the file Load(row) reads:
// the length of the row's record batch (for a Parquet file, the compressed
// bytes of its row group), or for a batch read by windows the window's
// share of it; 0 for a row not located.
func (f *File) WindowBytes(row int64) int64 {
	if f.set != nil {
		_, _, sf, local, ok := f.set.where(row)
		switch {
		case !ok:
			return 0
		case sf == nil: // its shard opens first, then reads the row's window
			s, _, _ := f.set.place(row)
			return f.set.sizeOf(s)
		}
		return sf.WindowBytes(local)
	}
	key, _, b, ok := f.where(row)
	n := b.length
	if f.pq != nil {
		n = b.stored
	}
	switch {
	case !ok:
		return 0
	case key.window >= 0:
		w, _ := f.windowRows(b)
		return n / b.rows * w
	}
	return n
}

// WindowState returns what is known of the row window holding row:
// Unread (also for a row not located), Loading, Loaded, Failed or
// Cancelled. A caller that loads the rows it shows asks it first so as not
// to read again what failed or what the reader cancelled. A window of a
// record batch being read whole (LoadBatchOf) is Loading, and Loaded once
// it is.
func (f *File) WindowState(row int64) WindowState {
	if f.set != nil {
		return f.set.windowState(row)
	}
	key, _, _, ok := f.where(row)
	if !ok {
		return Unread
	}
	if key.window >= 0 {
		switch f.cache.state(cacheKey{key.batch, -1, f.cacheID}) {
		case Loaded:
			return Loaded // its batch read whole serves it (rowData)
		case Loading:
			if s := f.cache.state(key); s != Loaded {
				return Loading // its batch being read whole will serve it (LoadBatchOf)
			}
		}
	}
	return f.cache.state(key)
}

// Await waits until the load of row's window under way (or of its record
// batch read whole, LoadBatchOf), whoever started it, has ended, without
// starting one: it returns at once when the window is not Loading
// (WindowState then says how the load ended). Its only error is
// ErrCanceled, when ctx is done first.
func (f *File) Await(ctx context.Context, row int64) error {
	if f.set != nil {
		return f.set.await(ctx, row)
	}
	key, _, _, ok := f.where(row)
	if !ok {
		return nil
	}
	if whole := (cacheKey{key.batch, -1, f.cacheID}); key.window >= 0 && f.cache.state(whole) == Loading {
		if err := f.cache.await(ctx, whole); err != nil {
			return err
		}
	}
	return f.cache.await(ctx, key)
}

// Forget makes every row window whose last load ended in state s (Failed
// or Cancelled) Unread again, so that the next Load reads it again instead
// of returning the failure, and returns how many it forgot. Any other s
// forgets nothing, and loads under way are left alone: this is how a
// reader's "read again" is asked explicitly.
func (f *File) Forget(s WindowState) int {
	if s != Failed && s != Cancelled {
		return 0
	}
	if f.set != nil {
		return f.set.forget(s)
	}
	return f.cache.forget(s)
}

// Load reads and decodes the data of row into the cache: its record batch,
// or for a batch larger than 16 MiB or a quarter of the budget (with
// Options.RowWindow, any batch) only a window of rows around it (just those
// bytes of its buffers); a window of a batch since read whole (Batch,
// LoadBatchOf) is served from the batch, and one of a batch being read
// whole waits for it (when that read fails, the window is read alone). A
// row window is loaded once: a caller asking while it loads waits for that load, and one asking
// after it failed gets the same error (until Forget(Failed)). The error
// says why the rows cannot be read: no row (yet: not indexed so far), a
// batch that needs more memory than the budget (wrapping ErrTooLarge),
// corrupt data (arrow-go's words or this package's checks), a closed file,
// or a panic (wrapping ErrPanic).
func (f *File) Load(row int64) error {
	if f.set != nil {
		return f.set.load(context.Background(), row)
	}
	_, _, err := f.rowData(context.Background(), row)
	return err
}

// LoadContext is Load whose big reads (a record batch read whole, BigRead
// bytes or more), when ctx can be cancelled, show in Reading and stop
// between pieces once ctx is done, with an error wrapping ErrCanceled;
// nothing of them is cached then (the window is Cancelled), and the next
// call reads the window again. Waiting for another caller's load of the
// window stops too when ctx is done, with ErrCanceled.
func (f *File) LoadContext(ctx context.Context, row int64) error {
	if f.set != nil {
		return f.set.load(ctx, row)
	}
	_, _, err := f.rowData(ctx, row)
	return err
}

// rowData returns the cached record batch (whole or a window) holding row,
// and the row's index in it, reading it when needed; ctx scopes the big
// reads as for LoadContext.
func (f *File) rowData(ctx context.Context, row int64) (d *decoded, local int, err error) {
	defer guard(&err, "reading row %d", row)
	key, local, b, ok := f.where(row)
	if !ok {
		return nil, 0, fmt.Errorf("no row %d (yet)", row)
	}
	if key.window < 0 {
		d, err := f.batch(ctx, key.batch)
		return d, local, err
	}
	whole := cacheKey{key.batch, -1, f.cacheID}
	if f.cache.state(whole) == Loading && f.cache.state(key) != Loaded {
		// The batch is being read whole (LoadBatchOf): its rows come
		// with it, and the window's bytes are not read twice. Should
		// that read fail or be cancelled, the window is read on its own.
		if err := f.cache.await(ctx, whole); err != nil {
			return nil, 0, err
		}
	}
	if d, ok := f.cache.cached(whole); ok {
		// The batch was read whole since (Batch, LoadBatchOf): its rows serve.
		w, _ := f.windowRows(b)
		return d, key.window*int(w) + local, nil
	}
	d, err = f.cache.get(ctx, key, func(ctx context.Context) (*decoded, int64, error) { return f.loadWindow(ctx, key) })
	if errors.Is(err, errNoWindow) {
		return f.rowData(ctx, row) // the batch is read whole now
	}
	return d, local, err
}

// loadWindow reads and validates the window of rows key names (for a
// Parquet file, through its source, within ctx).
func (f *File) loadWindow(ctx context.Context, key cacheKey) (*decoded, int64, error) {
	b, dicts, _ := f.index.batchAt(key.batch)
	w, small := f.windowRows(b)
	if w == 0 {
		return nil, 0, errNoWindow // read whole since key was named
	}
	s := int64(key.window) * w
	if f.pq != nil {
		return f.readParquet(ctx, key.batch, s, min(w, b.rows-s))
	}
	rec, _, err := f.readWindow(b, dicts, s, min(s+w, b.rows), small)
	if errors.Is(err, errNoWindow) {
		f.index.wholeOnly(key.batch)
		return nil, 0, err
	}
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read rows %d..%d of record batch %d: %w", s, s+w, key.batch, err)
	}
	f.windowReads.Add(1)
	// Its dictionaries, shared by the windows, are held once (windowDicts).
	return f.validate(key.batch, rec), bufferBytes(rec, false), nil
}

// Batch returns record batch i, reading and decoding it when it is not
// cached (once, whoever asks: see Load). The batch stays valid after
// eviction from the cache (memory is reclaimed by the garbage collector
// once nothing refers to it).
func (f *File) Batch(i int) (rec arrow.RecordBatch, err error) {
	if f.set != nil {
		defer guard(&err, "reading record batch %d", i)
		return f.set.readColumns(context.Background(), i, nil)
	}
	c, err := f.batch(context.Background(), i)
	if err != nil {
		return nil, err
	}
	return c.rec, nil
}

// batch is Batch with the big reads scoped by ctx.
func (f *File) batch(ctx context.Context, i int) (c *decoded, err error) {
	defer guard(&err, "reading record batch %d", i)
	b, dicts, ok := f.index.batchAt(i)
	if !ok {
		return nil, fmt.Errorf("no record batch %d", i)
	}
	return f.cache.get(ctx, cacheKey{i, -1, f.cacheID}, func(ctx context.Context) (*decoded, int64, error) {
		return f.loadBatch(ctx, i, b, dicts)
	})
}

// loadBatch decodes and validates record batch i, which b locates, and
// records its row count when its header was not read.
func (f *File) loadBatch(ctx context.Context, i int, b batchInfo, dicts [][]byte) (*decoded, int64, error) {
	if f.pq != nil {
		return f.readParquet(ctx, i, 0, b.rows)
	}
	f.firstRead.Store(true) // a window read after it is no longer the first screen's
	rec, err := f.decodeBatch(ctx, i, b, dicts)
	if err != nil {
		return nil, 0, err
	}
	f.parts.forget(b.offset) // its windows are served from it now
	size := recordBytes(rec)
	c := f.validate(i, rec)
	if b.rows >= 0 && rec.NumRows() != b.rows {
		f.notes.warn(fmt.Sprintf("record batch %d has %d rows, its header says %d", i, rec.NumRows(), b.rows))
	}
	f.index.counted(i, rec.NumRows())
	return c, size, nil
}
