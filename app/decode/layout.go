package decode

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// checkLayout checks a record batch's (or dictionary batch's) description
// of its body before arrow-go reads it, which trusts it: arrow-go takes one
// field node per array and buffers in the order of Arrow's columnar format
// (format/Columnar.rst, "Buffer Layout"), slices each buffer out of the body
// by its offset and length, and in a compressed body reads each buffer's
// first 8 bytes as its uncompressed length. Every node must be plausible
// (lengths and null counts at least 0, nulls at most the length), every
// buffer must lie within the body (and a compressed one hold its length
// prefix), and for record batches the nodes, buffers and variadic buffer
// counts must be at least as many as the schema's types take (types nil:
// not checked, for dictionary batches, whose value type arrow-go finds by
// the dictionary's id).
func checkLayout(l batchLayout, bodyLen int64, types []arrow.DataType) error {
	if l.rows < 0 {
		return fmt.Errorf("the record batch has a negative length (%d)", l.rows)
	}
	for k, n := range l.nodes {
		if n.length < 0 || n.nulls < 0 || n.nulls > n.length {
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
	if types == nil {
		return nil
	}
	var c layoutCount
	for _, t := range types {
		c.add(t, l.version, 0)
	}
	if c.err != nil {
		return c.err
	}
	switch {
	case len(l.nodes) < c.nodes:
		return fmt.Errorf("the record batch has %d field nodes; its schema needs %d", len(l.nodes), c.nodes)
	case len(l.buffers) < c.buffers:
		return fmt.Errorf("the record batch has %d buffers; its schema needs %d", len(l.buffers), c.buffers)
	case len(l.variadic) < c.variadic:
		return fmt.Errorf("the record batch has %d variadic buffer counts; its schema needs %d", len(l.variadic), c.variadic)
	}
	// The buffers of view types are counted by the file's variadic counts.
	for _, v := range l.variadic[:c.variadic] {
		if v < 0 || v > int64(len(l.buffers)) {
			return fmt.Errorf("a variadic buffer count of %d does not fit the record batch's %d buffers", v, len(l.buffers))
		}
		c.buffers += int(v)
	}
	if len(l.buffers) < c.buffers {
		return fmt.Errorf("the record batch has %d buffers; its schema needs %d", len(l.buffers), c.buffers)
	}
	return nil
}

// layoutCount counts the field nodes, buffers and variadic buffer counts
// types take in an IPC body, as arrow-go's reader takes them.
type layoutCount struct {
	nodes, buffers, variadic int
	err                      error
}

// metadataV5 is MetadataVersion V5 (Arrow 1.0 and later).
const metadataV5 = 4

func (c *layoutCount) add(t arrow.DataType, version, depth int) {
	if depth > maxDepth {
		c.err = fmt.Errorf("types nested more than %d deep", maxDepth)
		return
	}
	if ext, ok := t.(arrow.ExtensionType); ok {
		t = ext.StorageType()
	}
	c.nodes++
	id := t.ID()
	validity := id != arrow.NULL
	if version >= metadataV5 {
		switch id {
		case arrow.NULL, arrow.DENSE_UNION, arrow.SPARSE_UNION, arrow.RUN_END_ENCODED:
			validity = false
		}
	}
	if validity {
		c.buffers++
	}
	children := func(fields []arrow.Field) {
		for _, f := range fields {
			c.add(f.Type, version, depth+1)
		}
	}
	switch t := t.(type) {
	case *arrow.NullType:
	case *arrow.BinaryType, *arrow.StringType, *arrow.LargeBinaryType, *arrow.LargeStringType:
		c.buffers += 2
	case arrow.BinaryViewDataType:
		c.buffers++
		c.variadic++
	case *arrow.ListType:
		c.buffers++
		c.add(t.Elem(), version, depth+1)
	case *arrow.LargeListType:
		c.buffers++
		c.add(t.Elem(), version, depth+1)
	case *arrow.MapType:
		c.buffers++
		c.add(t.Elem(), version, depth+1)
	case *arrow.ListViewType:
		c.buffers += 2
		c.add(t.Elem(), version, depth+1)
	case *arrow.LargeListViewType:
		c.buffers += 2
		c.add(t.Elem(), version, depth+1)
	case *arrow.FixedSizeListType:
		c.add(t.Elem(), version, depth+1)
	case *arrow.StructType:
		children(t.Fields())
	case arrow.UnionType:
		c.buffers++
		if t.Mode() == arrow.DenseMode {
			c.buffers++
		}
		children(t.Fields())
	case *arrow.RunEndEncodedType:
		c.add(t.RunEnds(), version, depth+1)
		c.add(t.Encoded(), version, depth+1)
	default: // fixed-width types and dictionary indices: the values
		c.buffers++
	}
}
