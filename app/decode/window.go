package decode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A record batch larger than a quarter of the cache budget (with
// Options.RowWindow, any record batch) is read in windows of rows: only the
// byte ranges of its buffers that hold the rows asked for. This covers the
// layouts of fixed-width types, booleans, strings and binaries, lists,
// fixed-size lists (every fixed_shape_tensor), structs (every
// variable_shape_tensor), with Options.RowWindow dictionary-encoded arrays
// (their indices; the dictionaries are read once, see windowDicts), and
// extension types over them, in uncompressed bodies; anything else falls
// back to reading the batch whole.

// errNoWindow means a batch cannot be read by windows.
var errNoWindow = errors.New("layout not readable by row windows")

// windowReader reads the rows [s, e) of every column of one record batch.
type windowReader struct {
	r       io.ReaderAt // the file
	size    int64       // the file's size
	budget  int64       // the cache budget, which bounds each read
	body    int64       // file offset of the message body
	bodyLen int64
	layout  batchLayout
	node    int // next field node
	buf     int // next buffer
	read    int64
	// held reports whether the file's bytes [off, off+n) are in memory
	// already (the cached ends of the file): read just those.
	held func(off, n int64) bool
	// segs are the parts of the body read before decoding
	// (prefetch), in order; the ranges they hold are served from them.
	segs []segment
	// ahead holds bytes of the file read beyond what was asked (readAhead):
	// a window's ranges in the small columns lie close together, and the
	// next windows' ranges follow them.
	ahead *aheadCache
	// exact, when positive, is Options.RowWindow for a window of a batch
	// otherwise read whole: read no more than the window's ranges (no
	// read-ahead; the values of strings and lists guessed with a small
	// margin; ranges at most exactGap apart read as one, up to exact bytes).
	exact int64
	// dictionaries reads dictionary-encoded arrays by their indices
	// (Options.RowWindow), else their batch is read whole.
	dictionaries bool
	// deferred says plan left out the values of a string or binary
	// column of an exact window: their offsets were not in memory, and
	// the guess around their share would read more than exact bytes past
	// it. They are placed by their offsets once those are read (a second
	// round of reads: readWindow).
	deferred bool
}

// readAhead is how far past a requested range a window read goes.
const readAhead = 256 << 10

// aheadBlocks is how many read-ahead ranges a file keeps: one for each
// region of small buffers a window touches (a few per column), however
// many columns. Together they stay within an eighth of the cache budget
// (aheadCache.put).
const aheadBlocks = 32

// aheadCache keeps a file's last read-ahead ranges, shared by
// its row-window reads: scrolling reads window after window of the same
// batch, whose small columns (ids, labels, offsets) each lie in one range
// for thousands of rows, so that a window costs about one read (its
// tensors') instead of one per buffer. In a browser every read is a
// File.slice and a round trip to the browser process. Safe for concurrent
// use.
type aheadCache struct {
	mu     sync.Mutex
	blocks []aheadBlock // the most recently used last
}

type aheadBlock struct {
	off int64 // in the file
	b   []byte
}

// get returns the n bytes at file offset off if a kept range holds them.
func (c *aheadCache) get(off, n int64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, blk := range c.blocks {
		if off >= blk.off && off+n <= blk.off+int64(len(blk.b)) {
			c.blocks = append(append(c.blocks[:i:i], c.blocks[i+1:]...), blk)
			return blk.b[off-blk.off : off-blk.off+n]
		}
	}
	return nil
}

// put keeps b, the bytes at file offset off, dropping the least recently
// used ranges beyond aheadBlocks or limit bytes in all.
func (c *aheadCache) put(off int64, b []byte, limit int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := int64(len(b))
	for _, blk := range c.blocks {
		total += int64(len(blk.b))
	}
	for len(c.blocks) > 0 && (len(c.blocks) >= aheadBlocks || total > limit) {
		total -= int64(len(c.blocks[0].b))
		c.blocks = append(c.blocks[:0], c.blocks[1:]...)
	}
	if total <= limit {
		c.blocks = append(c.blocks, aheadBlock{off, b})
	}
}

// span is a range of a record batch body: n bytes at off.
type span struct{ off, n int64 }

// segment is a part of a record batch body read by prefetch: the bytes at
// off.
type segment struct {
	off int64
	b   []byte
}

// Prefetching: ranges less than prefetchGap apart (exactGap for exact
// windows) are read as one; ranges of at least shareMin bytes are handed
// over without a copy.
const (
	prefetchGap = 64 << 10
	exactGap    = 4 << 10
	shareMin    = 64 << 10
)

func (w *windowReader) nextNode() (fieldNode, error) {
	if w.node >= len(w.layout.nodes) {
		return fieldNode{}, errors.New("record batch header has too few field nodes")
	}
	w.node++
	return w.layout.nodes[w.node-1], nil
}

func (w *windowReader) nextBuffer() (ipcBuffer, error) {
	if w.buf >= len(w.layout.buffers) {
		return ipcBuffer{}, errors.New("record batch header has too few buffers")
	}
	w.buf++
	return w.layout.buffers[w.buf-1], nil
}

// bytes reads n bytes at offset off of buffer b (clamped to the buffer),
// into memory of their own.
func (w *windowReader) bytes(b ipcBuffer, off, n int64) (*memory.Buffer, error) {
	return w.get(b, off, n, false)
}

// values is bytes for a range that is never written to (values, not
// offsets): a large one may share the memory of a prefetched segment.
func (w *windowReader) values(b ipcBuffer, off, n int64) (*memory.Buffer, error) {
	return w.get(b, off, n, true)
}

func (w *windowReader) get(b ipcBuffer, off, n int64, share bool) (*memory.Buffer, error) {
	if off < 0 || n < 0 || off+n > b.length {
		return nil, fmt.Errorf("rows outside their buffer (bytes %d+%d of %d)", off, n, b.length)
	}
	at := b.offset + off // in the body
	if err := checkSize("a window of rows", n, w.budget, w.size); err != nil {
		return nil, err
	}
	if n > 0 && at >= 0 && at+n <= w.bodyLen {
		if seg, ok := w.segment(at, n); ok {
			if share && n >= shareMin {
				return memory.NewBufferBytes(seg[:n:n]), nil
			}
			return memory.NewBufferBytes(append([]byte(nil), seg[:n]...)), nil
		}
		if w.held != nil && w.held(w.body+at, n) {
			p := make([]byte, n)
			if err := readFull(w.r, p, w.body+at); err != nil {
				return nil, err
			}
			return memory.NewBufferBytes(p), nil
		}
	}
	p := make([]byte, n)
	if n == 0 {
		return memory.NewBufferBytes(p), nil
	}
	size := w.aheadSize(at, n)
	if size < n {
		return nil, fmt.Errorf("rows outside the record batch body")
	}
	if size == n {
		// Nothing to read ahead (a range as long as a read-ahead, the
		// tensors of a window): read it straight into its buffer.
		if err := readFull(w.r, p, w.body+at); err != nil {
			return nil, err
		}
		w.read += n
		return memory.NewBufferBytes(p), nil
	}
	src := w.ahead.get(w.body+at, n)
	if src == nil {
		blk := make([]byte, size)
		if err := readFull(w.r, blk, w.body+at); err != nil {
			return nil, err
		}
		w.read += size
		w.ahead.put(w.body+at, blk, w.budget/8)
		src = blk
	}
	copy(p, src)
	return memory.NewBufferBytes(p), nil
}

// aheadSize is how much a read of the n bytes at body offset at reads: the
// range plus what follows, up to readAhead (at most a sixteenth of the
// budget) and the end of the body; less than n for a range outside it.
func (w *windowReader) aheadSize(at, n int64) int64 {
	if w.exact > 0 {
		return min(n, w.bodyLen-at)
	}
	return min(max(n, min(readAhead, w.budget/16)), w.bodyLen-at)
}

// segment returns the prefetched bytes from at on, when a segment holds
// [at, at+n).
func (w *windowReader) segment(at, n int64) ([]byte, bool) {
	k := sort.Search(len(w.segs), func(k int) bool { return w.segs[k].off > at }) - 1
	for ; k >= 0; k-- { // a later round's segment may start inside an earlier one's
		if at+n <= w.segs[k].off+int64(len(w.segs[k].b)) {
			return w.segs[k].b[at-w.segs[k].off:], true
		}
	}
	return nil, false
}

// plan appends to want the ranges of the body that column(dt, s, e) reads,
// consuming the same field nodes and buffers, without reading anything.
// Where the values of strings, binaries and lists lie depends on their
// offsets, not read yet: plan guesses it from the rows' share of their
// buffer (a range column finds outside the guess is read then).
func (w *windowReader) plan(dt arrow.DataType, s, e int64, want []span) ([]span, error) {
	node, s0, storage, err := w.array(dt, s, e)
	if err != nil {
		return want, err
	}
	add := func(b ipcBuffer, off, n int64) {
		if n > 0 && off >= 0 && off+n <= b.length {
			want = append(want, span{b.offset + off, n})
		}
	}
	bits := func() error {
		b, err := w.nextBuffer()
		if err == nil && b.length > 0 {
			add(b, s0/8, (e+7)/8-s0/8)
		}
		return err
	}
	if err := bits(); err != nil { // validity
		return want, err
	}
	switch t := storage.(type) {
	case *arrow.BooleanType:
		return want, bits()
	case arrow.FixedWidthDataType: // a dictionary's indices too
		if storage.ID() == arrow.DICTIONARY && !w.dictionaries {
			return want, errNoWindow
		}
		if t.BitWidth()%8 != 0 {
			return want, errNoWindow
		}
		width := int64(t.BitWidth() / 8)
		vb, err := w.nextBuffer()
		if err != nil {
			return want, err
		}
		add(vb, s0*width, (e-s0)*width)
		return want, nil
	case *arrow.FixedSizeListType:
		n := int64(t.Len())
		return w.plan(t.Elem(), s0*n, e*n, want)
	case *arrow.StructType:
		for k := 0; k < t.NumFields(); k++ {
			if want, err = w.plan(t.Field(k).Type, s0, e, want); err != nil {
				return want, err
			}
		}
		return want, nil
	case *arrow.StringType, *arrow.BinaryType, *arrow.ListType:
		ob, err := w.nextBuffer()
		if err != nil {
			return want, err
		}
		add(ob, s0*4, (e-s0+1)*4)
		if lt, ok := storage.(*arrow.ListType); ok {
			if w.node >= len(w.layout.nodes) {
				return want, errors.New("record batch header has too few field nodes")
			}
			first, last := guessShare(w.layout.nodes[w.node].length, node.length, s0, e, w.margin())
			return w.plan(lt.Elem(), first, last, want)
		}
		vb, err := w.nextBuffer()
		if err != nil {
			return want, err
		}
		if first, last, ok := w.peekOffsets(ob, s0, e); ok && first <= last {
			add(vb, first, last-first) // exactly the rows' values
			return want, nil
		}
		first, last := guessShare(vb.length, node.length, s0, e, w.margin())
		if w.exact > 0 && last-first-(e-s0)*vb.length/max(1, node.length) > w.exact {
			// A guess reading more than a window's bytes past the rows'
			// share (images, documents): their offsets first.
			w.deferred = true
			return want, nil
		}
		add(vb, first, last-first)
		return want, nil
	}
	return want, errNoWindow
}

// peekOffsets returns the first and the last of the offsets [s0, e] of
// offsets buffer ob when they are in memory already (read by an earlier
// round of this window, the file's cached ends, a read-ahead), without
// reading anything; ok false when they are not, or lie outside ob.
func (w *windowReader) peekOffsets(ob ipcBuffer, s0, e int64) (first, last int64, ok bool) {
	at := func(k int64) (int64, bool) {
		off := ob.offset + k*4
		if k < 0 || (k+1)*4 > ob.length || off < 0 || off+4 > w.bodyLen {
			return 0, false
		}
		var p []byte
		if seg, ok := w.segment(off, 4); ok {
			p = seg[:4]
		} else if w.held != nil && w.held(w.body+off, 4) {
			p = make([]byte, 4)
			if readFull(w.r, p, w.body+off) != nil {
				return 0, false
			}
		} else if p = w.ahead.get(w.body+off, 4); p == nil {
			return 0, false
		}
		return int64(int32(binary.LittleEndian.Uint32(p))), true
	}
	first, ok = at(s0)
	if !ok {
		return 0, 0, false
	}
	last, ok = at(e)
	return first, last, ok && first >= 0
}

// guessShare guesses where the values of rows [s, e) of rows rows lie among
// total values (bytes of strings, elements of lists): their share, widened
// by a quarter of it and margin values each way.
func guessShare(total, rows, s, e, margin int64) (first, last int64) {
	if rows <= 0 || total <= 0 {
		return 0, 0
	}
	first, last = total/rows*s+total%rows*s/rows, total/rows*e+total%rows*e/rows
	slack := (last-first)/4 + margin
	return max(0, first-slack), min(total, last+slack)
}

// margin is how far past their share guessShare looks for a window's
// values: 4096 values, or for exact windows (a few KiB of values each) 256;
// values found outside the guess are read then.
func (w *windowReader) margin() int64 {
	if w.exact > 0 {
		return 256
	}
	return 4 << 10
}

// prefetch reads the ranges want of the body before decoding, but those the
// file's cached ends hold: ranges less than prefetchGap apart as one.
// bytes serves what they hold from then on.
// Overlapping ranges (a guess around other ranges) are merged as well.
// With atOnce the reads are made at the same time, else one after
// another.
func (w *windowReader) prefetch(want []span, atOnce bool) error {
	// A range over the budget is left to bytes, which says so; merged
	// ranges stay within a quarter of the budget, the gaps within a
	// sixteenth (as readAhead); for exact windows, within RowWindow bytes
	// and exactGap (by URL each read is a request, and its bytes are
	// transferred).
	limit, gap := w.budget/4, min(prefetchGap, w.budget/16)
	if w.exact > 0 {
		limit, gap = w.exact, exactGap
	}
	var todo []span
	for _, sp := range want {
		if sp.n <= 0 || sp.n > w.budget || sp.off < 0 || sp.off+sp.n > w.bodyLen || (w.held != nil && w.held(w.body+sp.off, sp.n)) {
			continue
		}
		if w.aheadSize(sp.off, sp.n) > sp.n && w.ahead.get(w.body+sp.off, sp.n) != nil {
			continue // a small range an earlier window read ahead
		}
		if _, ok := w.segment(sp.off, sp.n); ok {
			continue // read by an earlier round of this window
		}
		todo = append(todo, sp)
	}
	sort.Slice(todo, func(i, j int) bool { return todo[i].off < todo[j].off })
	var merged []span
	for _, sp := range todo {
		if k := len(merged) - 1; k >= 0 && sp.off <= merged[k].off+merged[k].n+gap {
			if n := max(merged[k].n, sp.off+sp.n-merged[k].off); n <= max(limit, merged[k].n) {
				merged[k].n = n
				continue
			}
		}
		merged = append(merged, sp)
	}
	// A small read reads ahead too, up to the next one: the next windows'
	// ranges of the same columns follow it.
	// Those are kept for the next windows; a long read (the window's
	// tensors) is not.
	// Small reads that reach the next small read are read as one (the
	// small columns of a batch of many rows lie a few read-aheads apart:
	// a score, label offsets, label values).
	var reads []span
	var ahead []bool
	for k, sp := range merged {
		end := sp.off + w.aheadSize(sp.off, sp.n)
		if k+1 < len(merged) {
			end = min(end, merged[k+1].off)
		}
		sp.n = max(sp.n, end-sp.off)
		more := end > merged[k].off+merged[k].n
		if j := len(reads) - 1; j >= 0 && ahead[j] && more && reads[j].off+reads[j].n == sp.off && reads[j].n+sp.n <= limit {
			reads[j].n += sp.n
			continue
		}
		reads, ahead = append(reads, sp), append(ahead, more)
	}
	segs := make([]segment, len(reads))
	for k, sp := range reads {
		segs[k] = segment{off: sp.off, b: make([]byte, sp.n)}
	}
	read := func(k int) error {
		if err := readFull(w.r, segs[k].b, w.body+segs[k].off); err != nil {
			return err
		}
		if ahead[k] {
			w.ahead.put(w.body+segs[k].off, segs[k].b, w.budget/8)
		}
		return nil
	}
	if atOnce && len(segs) > 1 {
		errs := make([]error, len(segs))
		var wg sync.WaitGroup
		for k := range segs {
			wg.Go(func() {
				defer func() { // a panic belongs to the caller's guard, not this goroutine
					if r := recover(); r != nil {
						errs[k] = recovered(r)
					}
				}()
				errs[k] = read(k)
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	} else {
		// One after another: reading them at once (goroutines) put the
		// first previews of the 1 GB one-batch bench file 10–20 ms sooner
		// but made the frames while flinging through it worse (p95 50 →
		// 67–100 ms).
		for k := range segs {
			if err := read(k); err != nil {
				return err
			}
		}
	}
	for _, s := range segs {
		w.read += int64(len(s.b))
	}
	w.segs = append(w.segs, segs...)
	sort.SliceStable(w.segs, func(i, j int) bool { return w.segs[i].off < w.segs[j].off })
	return nil
}

// bitmap reads the bits [s0, e) of a validity or boolean buffer (s0 a
// multiple of 8); nil when the buffer is absent.
func (w *windowReader) bitmap(b ipcBuffer, s0, e int64) (*memory.Buffer, error) {
	if b.length == 0 {
		return nil, nil
	}
	return w.bytes(b, s0/8, (e+7)/8-s0/8)
}

// array takes the field node of the next array, of type dt, whose
// elements [s, e) are read: it returns the node, the multiple of 8 the
// read starts at (s0), and dt's storage type; errNoWindow for a layout
// not read by windows (nulls: no validity buffer).
func (w *windowReader) array(dt arrow.DataType, s, e int64) (node fieldNode, s0 int64, storage arrow.DataType, err error) {
	if node, err = w.nextNode(); err != nil {
		return node, 0, nil, err
	}
	if s < 0 || e < s || e > node.length {
		return node, 0, nil, fmt.Errorf("rows %d..%d outside an array of %d", s, e, node.length)
	}
	storage = dt
	if ext, ok := dt.(arrow.ExtensionType); ok {
		storage = ext.StorageType()
	}
	if storage.ID() == arrow.NULL {
		return node, 0, nil, errNoWindow
	}
	return node, s - s%8, storage, nil
}

// column reads elements [s, e) of an array of type dt, consuming its nodes
// and buffers. Every array starts at a multiple of 8 elements, s0, with a
// data offset of s-s0, so bitmaps need no shifting. dicts is the array of
// no rows of the same type that holds the dictionaries (windowDicts), nil
// when the column has none.
func (w *windowReader) column(dt arrow.DataType, s, e int64, dicts arrow.ArrayData) (arrow.ArrayData, error) {
	_, s0, storage, err := w.array(dt, s, e)
	if err != nil {
		return nil, err
	}
	validity, err := w.nextBuffer()
	if err != nil {
		return nil, err
	}
	valid, err := w.bitmap(validity, s0, e)
	if err != nil {
		return nil, err
	}
	nulls := array.UnknownNullCount
	if valid == nil {
		nulls = 0
	}
	data := func(bufs []*memory.Buffer, children []arrow.ArrayData) arrow.ArrayData {
		return array.NewData(dt, int(e-s), append([]*memory.Buffer{valid}, bufs...), children, nulls, int(s-s0))
	}
	switch t := storage.(type) {
	case *arrow.BooleanType:
		vb, err := w.nextBuffer()
		if err != nil {
			return nil, err
		}
		bits, err := w.bitmap(vb, s0, e)
		if err != nil {
			return nil, err
		}
		return data([]*memory.Buffer{bits}, nil), nil
	case *arrow.DictionaryType:
		dict, ok := dictOf(dicts)
		if !ok || !w.dictionaries {
			return nil, errNoWindow // read whole, as arrow-go reads it
		}
		idx, err := w.fixed(t, s0, e)
		if err != nil {
			return nil, err
		}
		return array.NewDataWithDictionary(dt, int(e-s), []*memory.Buffer{valid, idx}, nulls, int(s-s0), dict), nil
	case arrow.FixedWidthDataType:
		vals, err := w.fixed(t, s0, e)
		if err != nil {
			return nil, err
		}
		return data([]*memory.Buffer{vals}, nil), nil
	case *arrow.FixedSizeListType:
		n := int64(t.Len())
		child, err := w.column(t.Elem(), s0*n, e*n, childOf(dicts, 0))
		if err != nil {
			return nil, err
		}
		return data(nil, []arrow.ArrayData{child}), nil
	case *arrow.StructType:
		children := make([]arrow.ArrayData, t.NumFields())
		for k := range children {
			if children[k], err = w.column(t.Field(k).Type, s0, e, childOf(dicts, k)); err != nil {
				return nil, err
			}
		}
		return data(nil, children), nil
	case *arrow.StringType, *arrow.BinaryType, *arrow.ListType:
		ob, err := w.nextBuffer()
		if err != nil {
			return nil, err
		}
		raw, err := w.bytes(ob, s0*4, (e-s0+1)*4)
		if err != nil {
			return nil, err
		}
		offs := raw.Bytes()
		first := int64(int32(binary.LittleEndian.Uint32(offs)))
		last := int64(int32(binary.LittleEndian.Uint32(offs[len(offs)-4:])))
		for k := 0; k+4 <= len(offs); k += 4 { // rebase: the window's values start at 0
			binary.LittleEndian.PutUint32(offs[k:], uint32(int64(int32(binary.LittleEndian.Uint32(offs[k:])))-first))
		}
		if lt, ok := storage.(*arrow.ListType); ok {
			child, err := w.column(lt.Elem(), first, last, childOf(dicts, 0))
			if err != nil {
				return nil, err
			}
			return data([]*memory.Buffer{raw}, []arrow.ArrayData{child}), nil
		}
		vb, err := w.nextBuffer()
		if err != nil {
			return nil, err
		}
		vals, err := w.values(vb, first, last-first)
		if err != nil {
			return nil, err
		}
		return data([]*memory.Buffer{raw, vals}, nil), nil
	}
	return nil, errNoWindow
}

// fixed reads the values [s0, e) of the next buffer, of a fixed-width type
// of whole bytes (a dictionary's indices too).
func (w *windowReader) fixed(t arrow.FixedWidthDataType, s0, e int64) (*memory.Buffer, error) {
	if t.BitWidth()%8 != 0 {
		return nil, errNoWindow
	}
	width := int64(t.BitWidth() / 8)
	vb, err := w.nextBuffer()
	if err != nil {
		return nil, err
	}
	return w.values(vb, s0*width, (e-s0)*width)
}

// readWindow reads rows [s, e) of record batch b, whose message starts at
// b.offset (for an IPC file, with a metadata part of b.metaLen bytes), and
// returns them with the bytes of the file read. dicts are the dictionary
// batch messages before b in a stream. An exact window (a small batch's,
// Options.RowWindow) reads only its ranges, all at once.
func (f *File) readWindow(b batchInfo, dicts [][]byte, s, e int64, exact bool) (arrow.RecordBatch, int64, error) {
	layout, metaLen, err := f.windowLayout(b)
	if err != nil {
		return nil, 0, err
	}
	if layout.compressed {
		return nil, 0, errNoWindow
	}
	w := &windowReader{r: f.ends, held: f.ends.holds, size: f.Size, budget: f.budget, body: b.offset + metaLen, bodyLen: b.length - metaLen, layout: layout, ahead: &f.ahead, dictionaries: f.rowWindow > 0}
	if exact {
		w.exact = f.rowWindow
	}
	// Plan every range the window needs and read those (in a browser each
	// read is a round trip: exactly what is needed, nearby ranges as one),
	// then decode it.
	var want []span
	for _, fld := range f.Schema.Fields() {
		if want, err = w.plan(fld.Type, s, e, want); err != nil {
			return nil, 0, err
		}
	}
	w.node, w.buf = 0, 0
	var held []arrow.ArrayData
	if w.dictionaries {
		if held, err = f.windowDicts(b, dicts, layout); err != nil {
			return nil, 0, err
		}
	}
	// The file's first rows, when a window, are read at once: the first
	// screen waits for them, and nothing else reads the file yet. Later
	// windows' reads go one after another (see prefetch), but those of
	// exact windows: a few small reads, each a request by URL.
	first := f.firstRead.CompareAndSwap(false, true)
	if err := w.prefetch(want, first || exact); err != nil {
		return nil, 0, err
	}
	if w.deferred {
		// The offsets of the large values are in now: a second round
		// reads the values of those rows exactly (the ranges of the first
		// round are not read again).
		w.node, w.buf, w.deferred, want = 0, 0, false, want[:0]
		for _, fld := range f.Schema.Fields() {
			if want, err = w.plan(fld.Type, s, e, want); err != nil {
				return nil, 0, err
			}
		}
		if err := w.prefetch(want, true); err != nil {
			return nil, 0, err
		}
		w.node, w.buf = 0, 0
	}
	if exact {
		// Kept until the batch is read whole (LoadBatchOf), which then
		// reads only the rest of it.
		parts := make([]segment, len(w.segs))
		for k, sg := range w.segs {
			parts[k] = segment{off: w.body + sg.off, b: sg.b}
		}
		f.parts.add(b.offset, parts, f.budget/8)
	}
	cols := make([]arrow.Array, len(f.Schema.Fields()))
	for k, fld := range f.Schema.Fields() {
		var d arrow.ArrayData
		if held != nil {
			d = held[k]
		}
		if d, err = w.column(fld.Type, s, e, d); err != nil {
			return nil, 0, err
		}
		cols[k] = array.MakeFromData(d)
	}
	return array.NewRecordBatch(f.Schema, cols, e-s), w.read, nil
}

// batchLayoutAt is a record batch header as readWindow uses it: the body's
// layout and the length of the message before the body.
type batchLayoutAt struct {
	layout  batchLayout
	metaLen int64
}

// windowLayout returns the layout of record batch b's body and the length
// of its message's metadata, read once per batch (its windows are read one
// after another while scrolling, each a read of the file less).
func (f *File) windowLayout(b batchInfo) (batchLayout, int64, error) {
	if l, ok := f.layouts.get(b.offset); ok {
		return l.layout, l.metaLen, nil
	}
	meta, _, eos, err := f.index.readMessage(b.offset)
	if err != nil || eos {
		return batchLayout{}, 0, orErr(err, "no record batch")
	}
	plen, _, _ := messagePrefix(meta)
	layout, err := parseBatchLayout(meta[plen:])
	if err != nil {
		return batchLayout{}, 0, err
	}
	if _, small := f.windowRows(b); small {
		// Kept with the bytes of the batch's windows (bodyParts): the
		// batch read whole later does not read its header again.
		f.parts.add(b.offset, []segment{{off: b.offset, b: meta}}, f.budget/8)
	}
	metaLen := int64(len(meta))
	if b.metaLen > 0 { // an IPC file: its body follows the metadata its block gives, as arrow-go reads it
		metaLen = b.metaLen
	}
	f.layouts.put(b.offset, batchLayoutAt{layout, metaLen})
	return layout, metaLen, nil
}

// maxLayouts bounds the headers a file keeps: an honest file has few
// batches read by windows (each is over a quarter of the budget), but a
// crafted footer may list any number of them.
const maxLayouts = 256

// layoutCache keeps the parsed headers of record batches read by row
// windows, by file offset, up to maxLayouts (then it starts over). Safe for
// concurrent use.
type layoutCache struct {
	mu sync.Mutex
	m  map[int64]batchLayoutAt
}

func (c *layoutCache) get(off int64) (batchLayoutAt, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.m[off]
	return l, ok
}

func (c *layoutCache) put(off int64, l batchLayoutAt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= maxLayouts {
		c.m = map[int64]batchLayoutAt{}
	}
	c.m[off] = l
}
