package decode

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// checkLayout checks a record batch's (or dictionary batch's) description
// of its body before arrow-go reads it, which trusts it: arrow-go takes one
// field node per array and buffers in the order of Arrow's columnar format
// (format/Columnar.rst, "Buffer Layout"; format/Message.fbs), slices each
// buffer out of the body by its offset and length, reads each compressed
// buffer's first 8 bytes as its uncompressed length, and makes arrays that
// slice their buffers by the node's length. So every node must be plausible
// (length and null count at least 0, nulls at most the length), every
// buffer must lie within the body (a compressed one hold its length
// prefix), and, for record batches, walking the schema's types as arrow-go
// does must find a node and a buffer for each, and buffers large enough for
// their node's length: validity bitmaps, fixed-width values, offsets, union
// type ids, views. types is nil for dictionary batches, whose value type
// arrow-go finds by the dictionary's id: only nodes and buffer bounds are
// checked then. body holds the message body when it is in memory; without
// it the decoded sizes of compressed buffers are not checked (their length
// prefixes are in the body).
func checkLayout(l batchLayout, bodyLen int64, types []arrow.DataType, body []byte) error {
	if l.rows < 0 || l.rows > maxLength {
		return fmt.Errorf("the record batch claims %d rows", l.rows)
	}
	for k, n := range l.nodes {
		if n.length < 0 || n.length > maxLength || n.nulls < 0 || n.nulls > n.length {
			return fmt.Errorf("field node %d has length %d with %d nulls", k, n.length, n.nulls)
		}
	}
	for k, b := range l.buffers {
		if b.offset < 0 || b.length < 0 || b.offset > bodyLen || b.length > bodyLen-b.offset {
			return fmt.Errorf("buffer %d (%d bytes at %d) lies outside the %d-byte body", k, b.length, b.offset, bodyLen)
		}
		if l.compressed && b.length > 0 && b.length < 8 {
			return fmt.Errorf("compressed buffer %d has %d bytes, too few for its length prefix", k, b.length)
		}
	}
	if int64(len(body)) != bodyLen {
		body = nil
	}
	if l.compressed && body != nil {
		for k, b := range l.buffers {
			if b.length == 0 {
				continue
			}
			if n := int64(binary.LittleEndian.Uint64(body[b.offset:])); n < -1 {
				return fmt.Errorf("compressed buffer %d declares a negative size (%d)", k, n)
			}
		}
	}
	w := &layoutWalk{l: l, body: body}
	for k, t := range types {
		if err := w.walk(t, 0); err != nil {
			return fmt.Errorf("column %d: %w", k, err)
		}
	}
	return nil
}

// maxLength bounds the length of an array or record batch (2^40, a
// trillion values): more than any file a browser can open holds, and small
// enough that sizes computed from it (16 bytes a value at most) do not
// overflow.
const maxLength = 1 << 40

// metadataV5 is MetadataVersion V5 (Arrow 1.0 and later).
const metadataV5 = 4

// layoutWalk takes the nodes, buffers and variadic buffer counts of a
// record batch as arrow-go's reader takes them for a schema's types.
type layoutWalk struct {
	l                    batchLayout
	body                 []byte
	node, buf, nVariadic int
}

func (w *layoutWalk) nextNode() (fieldNode, error) {
	if w.node >= len(w.l.nodes) {
		return fieldNode{}, fmt.Errorf("the record batch has %d field nodes, fewer than its schema needs", len(w.l.nodes))
	}
	w.node++
	return w.l.nodes[w.node-1], nil
}

func (w *layoutWalk) nextBuf() (ipcBuffer, error) {
	if w.buf >= len(w.l.buffers) {
		return ipcBuffer{}, fmt.Errorf("the record batch has %d buffers, fewer than its schema needs", len(w.l.buffers))
	}
	w.buf++
	return w.l.buffers[w.buf-1], nil
}

// size is the decoded size of a buffer: its length, or in a compressed body
// its length prefix (-1: stored raw after the prefix); ok is false when the
// prefix is not at hand.
func (w *layoutWalk) size(b ipcBuffer) (n int64, ok bool) {
	if !w.l.compressed || b.length == 0 {
		return b.length, true
	}
	if w.body == nil {
		return 0, false
	}
	n = int64(binary.LittleEndian.Uint64(w.body[b.offset:]))
	if n == -1 {
		return b.length - 8, true
	}
	return n, true
}

// need checks that buffer b holds n bytes of what.
func (w *layoutWalk) need(b ipcBuffer, n int64, what string) error {
	if n <= 0 {
		return nil
	}
	if size, ok := w.size(b); ok && size < n {
		return fmt.Errorf("its %s buffer has %d bytes, too few for %d", what, size, n)
	}
	return nil
}

// next takes a buffer and checks it holds n bytes of what.
func (w *layoutWalk) next(n int64, what string) error {
	b, err := w.nextBuf()
	if err != nil {
		return err
	}
	return w.need(b, n, what)
}

func (w *layoutWalk) walk(t arrow.DataType, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("types nested more than %d deep", maxDepth)
	}
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	node, err := w.nextNode()
	if err != nil {
		return err
	}
	n := node.length
	id := t.ID()
	validity := id != arrow.NULL
	if w.l.version >= metadataV5 {
		switch id {
		case arrow.NULL, arrow.DENSE_UNION, arrow.SPARSE_UNION, arrow.RUN_END_ENCODED:
			validity = false
		}
	}
	if validity {
		b, err := w.nextBuf()
		if err != nil {
			return err
		}
		if node.nulls > 0 { // arrow-go reads the bitmap only then
			if err := w.need(b, (n+7)/8, "validity"); err != nil {
				return fmt.Errorf("%s: %w", t, err)
			}
		}
	}
	offsets := func(width int64) error {
		if n == 0 {
			_, err := w.nextBuf()
			return err
		}
		return w.next((n+1)*width, "offsets")
	}
	var errs error
	switch t := t.(type) {
	case *arrow.NullType:
	case *arrow.BinaryType, *arrow.StringType:
		if errs = offsets(4); errs == nil {
			_, errs = w.nextBuf()
		}
	case *arrow.LargeBinaryType, *arrow.LargeStringType:
		if errs = offsets(8); errs == nil {
			_, errs = w.nextBuf()
		}
	case arrow.BinaryViewDataType:
		if w.nVariadic >= len(w.l.variadic) {
			return fmt.Errorf("the record batch has %d variadic buffer counts, fewer than its schema needs", len(w.l.variadic))
		}
		v := w.l.variadic[w.nVariadic]
		w.nVariadic++
		if v < 0 || v > int64(len(w.l.buffers)) {
			return fmt.Errorf("a variadic buffer count of %d does not fit the record batch's %d buffers", v, len(w.l.buffers))
		}
		errs = w.next(n*16, "views")
		for k := int64(0); k < v && errs == nil; k++ {
			_, errs = w.nextBuf()
		}
	case *arrow.ListType:
		if errs = offsets(4); errs == nil {
			errs = w.walk(t.Elem(), depth+1)
		}
	case *arrow.MapType:
		if errs = offsets(4); errs == nil {
			errs = w.walk(t.Elem(), depth+1)
		}
	case *arrow.LargeListType:
		if errs = offsets(8); errs == nil {
			errs = w.walk(t.Elem(), depth+1)
		}
	case *arrow.ListViewType:
		if errs = w.next(n*4, "offsets"); errs == nil {
			if errs = w.next(n*4, "sizes"); errs == nil {
				errs = w.walk(t.Elem(), depth+1)
			}
		}
	case *arrow.LargeListViewType:
		if errs = w.next(n*8, "offsets"); errs == nil {
			if errs = w.next(n*8, "sizes"); errs == nil {
				errs = w.walk(t.Elem(), depth+1)
			}
		}
	case *arrow.FixedSizeListType:
		errs = w.walk(t.Elem(), depth+1)
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if errs = w.walk(f.Type, depth+1); errs != nil {
				break
			}
		}
	case arrow.UnionType:
		if errs = w.next(n, "type ids"); errs == nil && t.Mode() == arrow.DenseMode {
			errs = w.next(n*4, "offsets")
		}
		for _, f := range t.Fields() {
			if errs != nil {
				break
			}
			errs = w.walk(f.Type, depth+1)
		}
	case *arrow.RunEndEncodedType:
		if errs = w.walk(t.RunEnds(), depth+1); errs == nil {
			errs = w.walk(t.Encoded(), depth+1)
		}
	case arrow.FixedWidthDataType: // and dictionary indices
		errs = w.next((n*int64(t.BitWidth())+7)/8, "values")
	default:
		return fmt.Errorf("type %s is not readable", t)
	}
	if errs != nil {
		return fmt.Errorf("%s: %w", t, errs)
	}
	return nil
}
