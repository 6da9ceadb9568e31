package decode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

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
	// ahead holds bytes of the body read beyond what was asked (readAhead),
	// since a window's ranges in the small columns lie close together.
	ahead    []byte
	aheadOff int64
}

// readAhead is how far past a requested range a window read goes.
const readAhead = 256 << 10

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
	if n > 0 && (at < w.aheadOff || at+n > w.aheadOff+int64(len(w.ahead))) {
		// Read the range plus what follows, up to the end of the body.
		size := min(max(n, min(readAhead, w.budget/16)), w.bodyLen-at)
		if size < n {
			return nil, fmt.Errorf("rows outside the record batch body")
		}
		w.ahead, w.aheadOff = make([]byte, size), at
		if err := readFull(w.r, w.ahead, w.body+at); err != nil {
			return nil, err
		}
		w.read += size
	}
	p := make([]byte, n)
	if n > 0 {
		copy(p, w.ahead[at-w.aheadOff:])
	}
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
	meta, _, eos, err := f.index.readMessage(b.offset)
	if err != nil || eos {
		return nil, 0, orErr(err, "no record batch")
	}
	plen, _, _ := messagePrefix(meta)
	layout, err := parseBatchLayout(meta[plen:])
	if err != nil {
		return nil, 0, err
	}
	if layout.compressed {
		return nil, 0, errNoWindow
	}
	metaLen := int64(len(meta))
	if b.metaLen > 0 { // an IPC file: its body follows the metadata its block gives, as arrow-go reads it
		metaLen = b.metaLen
	}
	w := &windowReader{r: f.ends, size: f.Size, budget: f.budget, body: b.offset + metaLen, bodyLen: b.length - metaLen, layout: layout}
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
