package decode

import (
	"context"
	"fmt"
	"io"
	"sync"
)

// BigRead is the size from which a read (a record batch read whole:
// compressed, dictionary-encoded or small enough for the cache) goes in
// pieces of BigRead bytes, so that it reports progress (File.Reading) and
// can be cancelled between pieces (File.CancelReads). Row windows and
// headers are smaller and go in one read.
const BigRead = 4 << 20

// ErrCanceled is the error of a read cancelled with File.CancelReads; it
// wraps context.Canceled.
var ErrCanceled = fmt.Errorf("reading cancelled: %w", context.Canceled)

// meter is the io.ReaderAt a File reads through: it splits big reads into
// pieces, counts their bytes and cancels them.
type meter struct {
	r io.ReaderAt

	mu      sync.Mutex
	ops     map[*bigOp]bool // big reads under way
	cancels int             // CancelReads calls so far
}

type bigOp struct {
	done, total int64
}

// ReadAt implements io.ReaderAt.
func (m *meter) ReadAt(p []byte, off int64) (int, error) {
	if len(p) < BigRead {
		return m.r.ReadAt(p, off)
	}
	op := &bigOp{total: int64(len(p))}
	m.mu.Lock()
	if m.ops == nil {
		m.ops = map[*bigOp]bool{}
	}
	m.ops[op] = true
	gen := m.cancels
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.ops, op)
		m.mu.Unlock()
	}()
	n := 0
	for n < len(p) {
		m.mu.Lock()
		cancelled := m.cancels != gen
		m.mu.Unlock()
		if cancelled {
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

// progress sums the big reads under way.
func (m *meter) progress() (done, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for op := range m.ops {
		done += op.done
		total += op.total
	}
	return done, total
}

func (m *meter) cancel() {
	m.mu.Lock()
	m.cancels++
	m.mu.Unlock()
}

// Reading returns the bytes read so far and in all of the big reads under
// way (record batches read whole, in pieces of 4 MiB), or 0, 0 when there
// is none: the viewer shows it as a progress bar.
func (f *File) Reading() (done, total int64) { return f.meter.progress() }

// CancelReads stops the big reads under way at their next 4 MiB piece:
// the Load or Batch calls waiting for them return an error wrapping
// ErrCanceled (and context.Canceled), and nothing of them is cached. Later
// reads are not affected.
func (f *File) CancelReads() { f.meter.cancel() }
