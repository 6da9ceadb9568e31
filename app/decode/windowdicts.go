package decode

import (
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// This file holds the dictionaries of the record batches read by row
// windows: a window of a dictionary-encoded column reads its rows'
// indices, and takes its dictionary from an array of no rows that
// arrow-go decoded with the dictionary batches, once for the file (an IPC
// file's dictionaries are the same for every batch) or for the
// dictionaries before a stream's batch.

// windowDictMax bounds the bytes of the dictionaries kept for row windows
// (and an eighth of the cache budget): every window's validation passes
// over them again. Batches whose dictionaries are larger are read whole.
const windowDictMax = 1 << 20

// dictHold is the dictionaries of the last record batch read by row
// windows. Safe for concurrent use.
type dictHold struct {
	mu   sync.Mutex
	set  bool
	key  int               // the dictionary messages before the batch (streams); -1 for an IPC file
	cols []arrow.ArrayData // per field of the schema: an array of no rows holding its dictionaries, or nil
	err  error             // why not (errNoWindow: the batches are read whole)
}

// windowDicts returns, per field of the schema, an array of no rows of the
// field's type that holds the dictionaries the field uses in record batch
// b, laid out as l (nil for a field without dictionaries; nil altogether
// when no field has one). dicts are the dictionary batch messages before b
// in a stream; an IPC file's are read from its footer's blocks. The arrays
// are validated and settled once, for every window that shares them. It
// returns errNoWindow when the dictionaries cannot be shared by windows
// (more than windowDictMax bytes, or broken: a batch read whole says why).
func (f *File) windowDicts(b batchInfo, dicts [][]byte, l batchLayout) ([]arrow.ArrayData, error) {
	var cols []int
	for k, fld := range f.Schema.Fields() {
		if hasDict(fld.Type, 0) {
			cols = append(cols, k)
		}
	}
	if len(cols) == 0 {
		return nil, nil
	}
	key := -1
	if f.Format == IPCStream {
		key = b.dicts
	}
	h := &f.dicts
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.set && h.key == key {
		return h.cols, h.err
	}
	held, err := f.readWindowDicts(dicts, l, cols)
	if err != nil && !errors.Is(err, errNoWindow) {
		return nil, err // a read that failed: tried again by the next window
	}
	h.set, h.key, h.cols, h.err = true, key, held, err
	return held, err
}

// readWindowDicts decodes a record batch of no rows of the fields cols,
// laid out as l with every length 0, with the dictionaries they use.
func (f *File) readWindowDicts(dicts [][]byte, l batchLayout, cols []int) ([]arrow.ArrayData, error) {
	what := "the dictionaries of " + f.columnsWhat("the record batches read by row windows", cols)
	pos, err := fieldRanges(l, f.types())
	if err != nil {
		return nil, err
	}
	proj := projectLayout(l, pos, cols)
	proj.rows, proj.compressed = 0, false
	for k := range proj.nodes {
		proj.nodes[k] = fieldNode{}
	}
	for k := range proj.buffers {
		proj.buffers[k] = ipcBuffer{}
	}
	schemaMsg, ids, err := f.schemaOf(cols)
	if err != nil {
		return nil, fmt.Errorf("cannot read the schema of %s: %w", what, err)
	}
	limit := min(windowDictMax, f.budget/8)
	dictMsgs, n, err := f.columnDicts(f.ends, dicts, ids, 0, what)
	switch {
	case errors.Is(err, ErrTooLarge) || (err == nil && n > limit):
		return nil, errNoWindow
	case err != nil:
		return nil, err
	}
	mem := newBudgetAllocator(limit, f.Size, what)
	mem.used = n
	msgs := append(append([]*ipc.Message{newMessage(schemaMsg, nil)}, dictMsgs...), newMessage(recordBatchMessage(proj, 0), nil))
	rec, err := decodeMessages(msgs, what, mem)
	if mem.Err() != nil || err != nil || rec.NumCols() != int64(len(cols)) {
		return nil, errNoWindow // read whole, which says what is wrong
	}
	out := make([]arrow.ArrayData, f.Schema.NumFields())
	for j, k := range cols {
		arr := rec.Column(j)
		if !arrow.TypeEqual(arr.DataType(), f.Schema.Field(k).Type) || validateArray(arr) != nil {
			return nil, errNoWindow
		}
		settle(arr) // its dictionaries are read by the windows' goroutines
		out[k] = arr.Data()
	}
	return out, nil
}

// hasDict reports whether dt or a type nested in it is dictionary-encoded
// (depth: how deep dt is nested).
func hasDict(dt arrow.DataType, depth int) bool {
	if depth > maxDepth {
		return false // refused by the layout's walk
	}
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	switch t := dt.(type) {
	case *arrow.DictionaryType:
		return true
	case arrow.NestedType:
		for _, fld := range t.Fields() {
			if hasDict(fld.Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// dictOf returns the dictionary that d, an array of windowDicts, holds.
func dictOf(d arrow.ArrayData) (*array.Data, bool) {
	if d == nil {
		return nil, false
	}
	dict, ok := d.Dictionary().(*array.Data)
	return dict, ok && dict != nil
}

// childOf returns child k of d, an array of windowDicts, or nil.
func childOf(d arrow.ArrayData, k int) arrow.ArrayData {
	if d == nil || k >= len(d.Children()) {
		return nil
	}
	return d.Children()[k]
}
