package decode

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// This file names the chunk (a record batch read whole, or a window of its
// rows) that holds a row, and loads chunks through the batch cache.

// where says which chunk holds row, the row's index there, and what is
// known of its record batch.
func (f *File) where(row int64) (key cacheKey, local int, b batchInfo, ok bool) {
	i, l, ok := f.index.locate(row)
	if !ok {
		return key, 0, b, false
	}
	b, _, _ = f.index.batchAt(i)
	if w := b.windowRows(f.budget); w > 0 {
		return cacheKey{i, l / int(w)}, l % int(w), b, true
	}
	return cacheKey{i, -1}, l, b, true
}

// Locate returns the record batch holding global row and the row's index
// in it, reading the batch's header (a few hundred bytes) when its row
// count is unknown; ok is false when row is out of range or in a part not
// yet indexed. While row counts are estimated the answer may change after
// Index.
func (f *File) Locate(row int64) (batch, local int, ok bool) { return f.index.locate(row) }

// Chunk names the unit of reading that holds row: its record batch, and the
// window of rows within it (-1 when the batch is read whole).
func (f *File) Chunk(row int64) (batch, window int, ok bool) {
	key, _, _, ok := f.where(row)
	return key.batch, key.window, ok
}

// ChunkBytes returns about how many bytes of the file Load(row) reads: the
// length of the row's record batch (for a Parquet file, the compressed
// bytes of its row group), or for a batch read by windows the window's
// share of it; 0 for a row not located.
func (f *File) ChunkBytes(row int64) int64 {
	key, _, b, ok := f.where(row)
	n := b.length
	if f.pq != nil {
		n = b.stored
	}
	switch {
	case !ok:
		return 0
	case key.window >= 0:
		return n / b.rows * b.windowRows(f.budget)
	}
	return n
}

// Loaded reports whether the rows of row's batch (or window of a large
// batch) are in the cache.
func (f *File) Loaded(row int64) bool { return f.chunkState(row) == chunkLoaded }

// Unread reports whether the chunk holding row is neither in the cache
// nor being loaded (false for a row not located).
func (f *File) Unread(row int64) bool {
	_, _, _, ok := f.where(row)
	return ok && f.chunkState(row) == chunkUnread
}

func (f *File) chunkState(row int64) chunkState {
	key, _, _, ok := f.where(row)
	if !ok {
		return chunkUnread
	}
	return f.cache.state(key)
}

// Load reads and decodes the data of row into the cache: its record batch,
// or for a batch larger than a quarter of the budget only a window of rows
// around it (just those bytes of its buffers). A chunk is loaded once: a
// caller asking while it loads waits for that load, and one asking after
// it failed gets the same error. The error says why the rows cannot be
// read: no row (yet: not indexed so far), a batch that needs more memory
// than the budget (wrapping ErrTooLarge), corrupt data (arrow-go's words or
// this package's checks), a closed file, or a panic (wrapping ErrPanic).
func (f *File) Load(row int64) error {
	_, _, err := f.rowData(context.Background(), row)
	return err
}

// LoadContext is Load whose big reads (a record batch read whole, BigRead
// bytes or more), when ctx can be cancelled, show in Reading and stop
// between pieces once ctx is done, with an error wrapping ErrCanceled;
// nothing of them is cached then, and the next call reads the chunk again.
// Waiting for another caller's load of the chunk stops too when ctx is
// done, with ErrCanceled.
func (f *File) LoadContext(ctx context.Context, row int64) error {
	_, _, err := f.rowData(ctx, row)
	return err
}

// rowData returns the cached record batch (whole or a window) holding row,
// and the row's index in it, reading it when needed; ctx scopes the big
// reads as for LoadContext.
func (f *File) rowData(ctx context.Context, row int64) (c *chunk, local int, err error) {
	defer guard(&err, "reading row %d", row)
	key, local, _, ok := f.where(row)
	if !ok {
		return nil, 0, fmt.Errorf("no row %d (yet)", row)
	}
	if key.window < 0 {
		c, err := f.batch(ctx, key.batch)
		return c, local, err
	}
	c, err = f.cache.get(ctx, key, func(ctx context.Context) (*chunk, int64, error) { return f.loadWindow(ctx, key) })
	if errors.Is(err, errNoWindow) {
		return f.rowData(ctx, row) // the batch is read whole now
	}
	return c, local, err
}

// loadWindow reads and validates the window of rows key names (for a
// Parquet file, through its source, within ctx).
func (f *File) loadWindow(ctx context.Context, key cacheKey) (*chunk, int64, error) {
	b, _, _ := f.index.batchAt(key.batch)
	w := b.windowRows(f.budget)
	if w == 0 {
		return nil, 0, errNoWindow // read whole since key was named
	}
	s := int64(key.window) * w
	if f.pq != nil {
		return f.readParquet(ctx, key.batch, s, min(w, b.rows-s))
	}
	rec, _, err := f.readWindow(b, s, min(s+w, b.rows))
	if errors.Is(err, errNoWindow) {
		f.index.wholeOnly(key.batch)
		return nil, 0, err
	}
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read rows %d..%d of record batch %d: %w", s, s+w, key.batch, err)
	}
	f.windowReads.Add(1)
	return f.validate(key.batch, rec), recordBytes(rec), nil
}

// Batch returns record batch i, reading and decoding it when it is not
// cached (once, whoever asks: see Load). The batch stays valid after
// eviction from the cache (memory is reclaimed by the garbage collector
// once nothing refers to it).
func (f *File) Batch(i int) (rec arrow.RecordBatch, err error) {
	c, err := f.batch(context.Background(), i)
	if err != nil {
		return nil, err
	}
	return c.rec, nil
}

// batch is Batch with the big reads scoped by ctx.
func (f *File) batch(ctx context.Context, i int) (c *chunk, err error) {
	defer guard(&err, "reading record batch %d", i)
	b, dicts, ok := f.index.batchAt(i)
	if !ok {
		return nil, fmt.Errorf("no record batch %d", i)
	}
	return f.cache.get(ctx, cacheKey{i, -1}, func(ctx context.Context) (*chunk, int64, error) {
		return f.loadBatch(ctx, i, b, dicts)
	})
}

// loadBatch decodes and validates record batch i, which b locates, and
// records its row count when its header was not read.
func (f *File) loadBatch(ctx context.Context, i int, b batchInfo, dicts [][]byte) (*chunk, int64, error) {
	if f.pq != nil {
		return f.readParquet(ctx, i, 0, b.rows)
	}
	f.firstRead.Store(true) // a window read after it is no longer the first screen's
	rec, err := f.decodeBatch(ctx, i, b, dicts)
	if err != nil {
		return nil, 0, err
	}
	size := recordBytes(rec)
	c := f.validate(i, rec)
	if b.rows >= 0 && rec.NumRows() != b.rows {
		f.notes.warn(fmt.Sprintf("record batch %d has %d rows, its header says %d", i, rec.NumRows(), b.rows))
	}
	f.index.counted(i, rec.NumRows())
	return c, size, nil
}
