package decode

import (
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ErrTooLarge is wrapped by the errors of reads that would need more memory
// than a file can plausibly hold or than the cache budget allows.
var ErrTooLarge = errors.New("too large to read within the cache budget")

// maxMetadata bounds one IPC message's metadata (its flatbuffer) and an IPC
// file's footer. Real schemas and record batch headers take kilobytes; a
// schema of 100,000 columns takes a few megabytes.
const maxMetadata = 64 << 20

// budgetAllocator is the memory.Allocator handed to arrow-go's IPC readers
// for one decode (one record batch with its dictionaries). arrow-go sizes
// buffers by lengths read from the file (a message body's length, the
// uncompressed length written before each compressed buffer) and allocates
// before it reads or decompresses: a 1 KB file can declare a 64 GiB buffer,
// and an allocation that size ends a Go program with an out-of-memory error
// that no recover catches. budgetAllocator refuses any request that would
// take the bytes allocated through it past limit: it panics with a
// *refusal, which arrow-go's reader (or guard) turns into an error, and
// remembers it so that the caller can say what happened (Err).
//
// The GoAllocator it wraps never frees (the garbage collector does), so the
// count only grows: limit bounds everything one decode allocates.
type budgetAllocator struct {
	limit int64
	what  string // what is being decoded, for the error: "record batch 3"
	size  int64  // the file's size, for the error

	mu      sync.Mutex
	used    int64
	refused *refusal
}

// refusal is the panic value of a refused allocation, and the error of a
// read refused by checkSize (read set).
type refusal struct {
	want, used, limit, size int64
	what                    string
	read                    bool
}

func (r *refusal) Error() string {
	ask := fmt.Sprintf("it asks for a buffer of %s after %s", HumanBytes(r.want), HumanBytes(r.used))
	if r.read {
		ask = fmt.Sprintf("it declares %s", HumanBytes(r.want))
	}
	return fmt.Sprintf("%s needs more memory than the cache budget (%s) allows: %s; the file is %s (a larger budget: ?cache=<MiB> in the page address)",
		r.what, HumanBytes(r.limit), ask, HumanBytes(r.size))
}

func (r *refusal) Unwrap() error { return ErrTooLarge }

func newBudgetAllocator(limit, size int64, what string) *budgetAllocator {
	return &budgetAllocator{limit: limit, size: size, what: what}
}

func (a *budgetAllocator) take(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n < 0 || int64(n) > a.limit-a.used {
		r := &refusal{want: int64(n), used: a.used, limit: a.limit, size: a.size, what: a.what}
		if a.refused == nil {
			a.refused = r
		}
		panic(r)
	}
	a.used += int64(n)
}

// Allocate implements memory.Allocator.
func (a *budgetAllocator) Allocate(n int) []byte {
	a.take(n)
	return memory.DefaultAllocator.Allocate(n)
}

// Reallocate implements memory.Allocator.
func (a *budgetAllocator) Reallocate(n int, b []byte) []byte {
	if n >= 0 && n <= cap(b) {
		return b[:n]
	}
	a.take(n)
	return memory.DefaultAllocator.Reallocate(n, b)
}

// Free implements memory.Allocator.
func (a *budgetAllocator) Free(b []byte) {}

// Err returns the first refusal, or nil.
func (a *budgetAllocator) Err() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.refused == nil {
		return nil
	}
	return a.refused
}

// checkSize returns an error when a read of n bytes for what would exceed
// limit; it bounds the reads this package sizes by lengths from the file.
func checkSize(what string, n, limit, size int64) error {
	if n < 0 || n > limit {
		return &refusal{want: n, limit: limit, size: size, what: what, read: true}
	}
	return nil
}
