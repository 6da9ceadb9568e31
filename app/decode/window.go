package decode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A record batch larger than a quarter of the cache budget is read in
// windows of rows: only the byte ranges of its buffers that hold the rows
// asked for. This covers the layouts of fixed-width types, booleans,
// strings and binaries, lists, fixed-size lists (every fixed_shape_tensor),
// structs (every variable_shape_tensor) and extension types over them, in
// uncompressed bodies; anything else falls back to reading the batch whole.

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
	// ahead holds bytes of the file read beyond what was asked (readAhead):
	// a window's ranges in the small columns lie close together, and the
	// next windows' ranges follow them.
	ahead *aheadCache
}

// readAhead is how far past a requested range a window read goes.
const readAhead = 256 << 10

// aheadBlocks is how many read-ahead ranges a file keeps.
const aheadBlocks = 8

// aheadCache keeps a file's last aheadBlocks read-ahead ranges, shared by
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
// used range beyond aheadBlocks.
func (c *aheadCache) put(off int64, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.blocks) >= aheadBlocks {
		c.blocks = append(c.blocks[:0], c.blocks[1:]...)
	}
	c.blocks = append(c.blocks, aheadBlock{off, b})
}

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

// bytes reads n bytes at offset off of buffer b (clamped to the buffer).
func (w *windowReader) bytes(b ipcBuffer, off, n int64) (*memory.Buffer, error) {
	if off < 0 || n < 0 || off+n > b.length {
		return nil, fmt.Errorf("rows outside their buffer (bytes %d+%d of %d)", off, n, b.length)
	}
	at := b.offset + off // in the body
	if err := checkSize("a window of rows", n, w.budget, w.size); err != nil {
		return nil, err
	}
	p := make([]byte, n)
	if n == 0 {
		return memory.NewBufferBytes(p), nil
	}
	// Read the range plus what follows, up to the end of the body.
	size := min(max(n, min(readAhead, w.budget/16)), w.bodyLen-at)
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
		w.ahead.put(w.body+at, blk)
		src = blk
	}
	copy(p, src)
	return memory.NewBufferBytes(p), nil
}

// bitmap reads the bits [s0, e) of a validity or boolean buffer (s0 a
// multiple of 8); nil when the buffer is absent.
func (w *windowReader) bitmap(b ipcBuffer, s0, e int64) (*memory.Buffer, error) {
	if b.length == 0 {
		return nil, nil
	}
	return w.bytes(b, s0/8, (e+7)/8-s0/8)
}

// column reads elements [s, e) of an array of type dt, consuming its nodes
// and buffers. Every array starts at a multiple of 8 elements, s0, with a
// data offset of s-s0, so bitmaps need no shifting.
func (w *windowReader) column(dt arrow.DataType, s, e int64) (arrow.ArrayData, error) {
	node, err := w.nextNode()
	if err != nil {
		return nil, err
	}
	if s < 0 || e < s || e > node.length {
		return nil, fmt.Errorf("rows %d..%d outside an array of %d", s, e, node.length)
	}
	s0 := s - s%8
	storage := dt
	if ext, ok := dt.(arrow.ExtensionType); ok {
		storage = ext.StorageType()
	}
	if storage.ID() == arrow.NULL || storage.ID() == arrow.DICTIONARY {
		return nil, errNoWindow // no validity buffer / values elsewhere
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
	case arrow.FixedWidthDataType:
		if t.BitWidth()%8 != 0 || storage.ID() == arrow.DICTIONARY {
			return nil, errNoWindow
		}
		width := int64(t.BitWidth() / 8)
		vb, err := w.nextBuffer()
		if err != nil {
			return nil, err
		}
		vals, err := w.bytes(vb, s0*width, (e-s0)*width)
		if err != nil {
			return nil, err
		}
		return data([]*memory.Buffer{vals}, nil), nil
	case *arrow.FixedSizeListType:
		n := int64(t.Len())
		child, err := w.column(t.Elem(), s0*n, e*n)
		if err != nil {
			return nil, err
		}
		return data(nil, []arrow.ArrayData{child}), nil
	case *arrow.StructType:
		children := make([]arrow.ArrayData, t.NumFields())
		for k := range children {
			if children[k], err = w.column(t.Field(k).Type, s0, e); err != nil {
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
			child, err := w.column(lt.Elem(), first, last)
			if err != nil {
				return nil, err
			}
			return data([]*memory.Buffer{raw}, []arrow.ArrayData{child}), nil
		}
		vb, err := w.nextBuffer()
		if err != nil {
			return nil, err
		}
		vals, err := w.bytes(vb, first, last-first)
		if err != nil {
			return nil, err
		}
		return data([]*memory.Buffer{raw, vals}, nil), nil
	}
	return nil, errNoWindow
}

// readWindow reads rows [s, e) of record batch b, whose message starts at
// b.offset (for an IPC file, with a metadata part of b.metaLen bytes), and
// returns them with the bytes of the file read.
func (f *File) readWindow(b batchInfo, s, e int64) (arrow.RecordBatch, int64, error) {
	layout, metaLen, err := f.windowLayout(b)
	if err != nil {
		return nil, 0, err
	}
	if layout.compressed {
		return nil, 0, errNoWindow
	}
	w := &windowReader{r: f.ends, size: f.Size, budget: f.budget, body: b.offset + metaLen, bodyLen: b.length - metaLen, layout: layout, ahead: &f.ahead}
	cols := make([]arrow.Array, len(f.Schema.Fields()))
	for k, fld := range f.Schema.Fields() {
		d, err := w.column(fld.Type, s, e)
		if err != nil {
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
	if v, ok := f.layouts.Load(b.offset); ok {
		l := v.(batchLayoutAt)
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
	metaLen := int64(len(meta))
	if b.metaLen > 0 { // an IPC file: its body follows the metadata its block gives, as arrow-go reads it
		metaLen = b.metaLen
	}
	f.layouts.Store(b.offset, batchLayoutAt{layout, metaLen})
	return layout, metaLen, nil
}
