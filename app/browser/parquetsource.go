package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
)

// parquetSource is decode.ParquetSource over the Parquet reader's worker
// (parquetWorker): each ReadRows is one read request to it, refused before
// it starts when it would take more than the cache budget (readGuard).
type parquetSource struct {
	worker *parquetWorker
	meta   *workerMeta
	budget int64
}

// parquetMemLimit is the wasm memory past which the Parquet reader's
// worker is replaced by a fresh one after a read: twice the cache budget
// (a read's column chunks and its decoded rows), at least 512 MiB, at most
// 3 GiB (wasm32 memory ends at 4 GiB).
func parquetMemLimit(budget int64) int64 {
	return min(max(2*budget, 512<<20), 3<<30)
}

// OpenParquet opens the Parquet file name of size bytes in a Parquet
// reader's worker (web/parquet-worker.js: hyparquet bridged to Arrow IPC,
// or parquet-wasm for the files that engine declines): it loads the
// reader, reads the footer and opens the file with decode.OpenParquet,
// within the cache budget. A Blob (blob not nil) is handed to the worker
// as it is; else the file is read through r (a file by URL), the worker
// asking for its byte ranges; url is its address ("" for a Blob), for the
// worker web/boot.js may have started for it. It returns a function that closes the worker
// too (decode.File.Close closes it as well). It blocks its goroutine until
// the worker answers: call it from ctx.Async.
func OpenParquet(ctx context.Context, name string, blob app.Value, r io.ReaderAt, url string, size int64, opt decode.Options) (*decode.File, func(), error) {
	budget := opt.Budget
	if budget <= 0 {
		budget = decode.DefaultBudget
	}
	w := newParquetWorker(blob, r, url, size, parquetMemLimit(budget), budget/2)
	metaJSON, schema, err := w.open(ctx)
	if err != nil {
		w.Close()
		return nil, nil, openError(err)
	}
	wm, err := parseWorkerMeta(metaJSON)
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	meta := wm.decodeMeta(schema)
	f, err := decode.OpenParquet(name, size, meta, &parquetSource{worker: w, meta: wm, budget: budget}, opt)
	if err != nil {
		w.Close()
		return nil, nil, err
	}
	return f, w.Close, nil
}

// openError says why the Parquet reader could not open a file, in words
// for the user.
func openError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "encryption"):
		return fmt.Errorf("the file is encrypted (Parquet modular encryption), which tensorview cannot read (%s)", msg)
	case strings.HasPrefix(msg, "the Parquet reader") || errors.Is(err, context.Canceled):
		return err
	}
	return fmt.Errorf("not a Parquet file that can be read: %s", msg)
}

// ReadRows implements decode.ParquetSource.
func (s *parquetSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	names, err := s.meta.columnNames(columns)
	if err == nil {
		err = s.meta.readGuard(rowGroup, offset, limit, names, s.budget)
	}
	if err != nil {
		return nil, err
	}
	msg, err := s.worker.request(ctx, func() app.Value {
		m := app.Window().Get("Object").New()
		m.Set("op", "read")
		m.Set("rowGroup", rowGroup)
		m.Set("offset", float64(offset))
		m.Set("limit", float64(limit))
		if names != nil {
			list := make([]any, len(names))
			for i, n := range names {
				list[i] = n
			}
			m.Set("columns", list)
		}
		return m
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var trap *trapError
		if errors.As(err, &trap) {
			return nil, err
		}
		engine := "the Parquet reader"
		var ee *engineError
		if errors.As(err, &ee) {
			engine = ee.engine
		}
		return nil, fmt.Errorf("%s failed reading row group %d: %w", engine, rowGroup, err)
	}
	return bytesOf(msg.Get("ipc")), nil
}

// Close implements decode.ParquetSource: it terminates the worker.
func (s *parquetSource) Close() error {
	s.worker.Close()
	return nil
}
