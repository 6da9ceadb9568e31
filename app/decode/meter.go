package decode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// BigRead is the size from which a read (a record batch read whole:
// compressed, dictionary-encoded or small enough for the cache) goes in
// pieces of BigRead bytes, so that it can report progress (File.Reading)
// and stop between pieces (File.LoadContext, File.Close). Row windows and
// headers are smaller and go in one read.
const BigRead = 4 << 20

// ErrCanceled is the error of a read stopped because the context of
// File.LoadContext was cancelled; it wraps context.Canceled.
var ErrCanceled = fmt.Errorf("reading cancelled: %w", context.Canceled)

// errClosed stops the big reads of a closed File.
var errClosed = errors.New("the file was closed")

// meter is the io.ReaderAt a File reads through: it splits big reads into
// pieces, counts the bytes of those made for LoadContext, and stops them
// when their context is done or the file is closed.
type meter struct {
	r io.ReaderAt

	mu     sync.Mutex
	ops    map[*bigOp]bool // big reads under way that Reading reports
	closed bool
}

type bigOp struct {
	done, total int64
}

// ReadAt implements io.ReaderAt: big reads stop only when the file closes.
func (m *meter) ReadAt(p []byte, off int64) (int, error) {
	return m.read(context.Background(), false, p, off)
}

// view is the meter seen by one LoadContext call.
type view struct {
	m   *meter
	ctx context.Context
}

func (v view) ReadAt(p []byte, off int64) (int, error) { return v.m.read(v.ctx, true, p, off) }

func (m *meter) read(ctx context.Context, shown bool, p []byte, off int64) (int, error) {
	if len(p) < BigRead {
		return m.r.ReadAt(p, off)
	}
	op := &bigOp{total: int64(len(p))}
	if shown {
		m.begin(op)
		defer m.end(op)
	}
	n := 0
	for n < len(p) {
		switch {
		case m.isClosed():
			return n, errClosed
		case ctx.Err() != nil:
			return n, ErrCanceled
		}
		k, err := m.r.ReadAt(p[n:min(len(p), n+BigRead)], off+int64(n))
		n += k
		m.mu.Lock()
		op.done = int64(n)
		m.mu.Unlock()
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// begin shows op in Reading until end.
func (m *meter) begin(op *bigOp) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ops == nil {
		m.ops = map[*bigOp]bool{}
	}
	m.ops[op] = true
}

// end stops showing op.
func (m *meter) end(op *bigOp) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.ops, op)
}

func (m *meter) progress() (done, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for op := range m.ops {
		done += op.done
		total += op.total
	}
	return done, total
}

func (m *meter) close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
}

func (m *meter) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Reading returns the bytes read so far and in all, over the big reads of
// LoadContext calls under way (record batches read whole, in pieces of
// BigRead bytes), or 0, 0 when there is none: the viewer shows it as a
// progress bar.
func (f *File) Reading() (done, total int64) {
	if f.set != nil {
		return f.set.reading()
	}
	return f.meter.progress()
}
