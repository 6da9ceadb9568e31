package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/apache/thrift/lib/go/thrift"
)

// dropPageIndex rewrites the Parquet file path without its page index, as
// pyarrow writes a file by default (write_page_index=False; what Hugging
// Face datasets uploads): arrow-rs, which parquet-wasm is, always writes an
// offset index. The footer (FileMetaData, Thrift compact protocol) is copied
// field by field without each ColumnChunk's offset_index_offset and
// _length and column_index_offset and _length (fields 4 to 7), and the
// file is cut where the indexes began (arrow-rs writes them after the last
// row group, before the footer), so it holds no bytes no reader reaches.
// It returns the number of column chunks whose index references it removed.
func dropPageIndex(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n := len(data)
	if n < 12 || string(data[:4]) != "PAR1" || string(data[n-4:]) != "PAR1" {
		return 0, fmt.Errorf("%s: not a Parquet file (no PAR1 at both ends)", path)
	}
	footerLen := int(binary.LittleEndian.Uint32(data[n-8 : n-4]))
	footerAt := n - 8 - footerLen
	if footerLen <= 0 || footerAt < 4 {
		return 0, fmt.Errorf("%s: footer length %d does not fit in %d bytes", path, footerLen, n)
	}
	footer, cut, dropped, err := stripFooter(data[footerAt : n-8])
	if err != nil {
		return 0, fmt.Errorf("%s: footer: %w", path, err)
	}
	end := footerAt
	if cut > 4 && cut < int64(footerAt) {
		end = int(cut)
	}
	var out bytes.Buffer
	out.Grow(end + len(footer) + 8)
	out.Write(data[:end])
	out.Write(footer)
	binary.Write(&out, binary.LittleEndian, uint32(len(footer)))
	out.WriteString("PAR1")
	return dropped, os.WriteFile(path, out.Bytes(), 0o644)
}

// stripFooter copies a FileMetaData without the page index references of
// its column chunks; cut is the smallest index offset it dropped (-1 when
// none), dropped the column chunks that had one.
func stripFooter(meta []byte) (out []byte, cut int64, dropped int, err error) {
	ctx := context.Background()
	conf := &thrift.TConfiguration{MaxMessageSize: 1 << 30}
	in := thrift.NewTCompactProtocolConf(&thrift.TMemoryBuffer{Buffer: bytes.NewBuffer(meta)}, conf)
	buf := thrift.NewTMemoryBuffer()
	w := thrift.NewTCompactProtocolConf(buf, conf)
	c := &thriftCopier{ctx: ctx, in: in, out: w, cut: -1}
	// FileMetaData.row_groups (4) → RowGroup.columns (1) → ColumnChunk,
	// without fields 4 to 7.
	chunk := &thriftPath{drop: map[int16]bool{4: true, 5: true, 6: true, 7: true}}
	root := &thriftPath{fields: map[int16]*thriftPath{4: {fields: map[int16]*thriftPath{1: chunk}}}}
	if err := c.structure(root); err != nil {
		return nil, 0, 0, err
	}
	if err := w.Flush(ctx); err != nil {
		return nil, 0, 0, err
	}
	return buf.Bytes(), c.cut, c.dropped, nil
}

// thriftPath says which fields of a struct to drop and which to descend
// into (a struct, or a list or set of structs).
type thriftPath struct {
	drop   map[int16]bool
	fields map[int16]*thriftPath
}

type thriftCopier struct {
	ctx     context.Context
	in, out *thrift.TCompactProtocol
	cut     int64 // the smallest offset of a dropped index, -1 none
	dropped int   // structs that had a field dropped
}

func (c *thriftCopier) structure(p *thriftPath) error {
	if _, err := c.in.ReadStructBegin(c.ctx); err != nil {
		return err
	}
	if err := c.out.WriteStructBegin(c.ctx, ""); err != nil {
		return err
	}
	had := false
	for {
		_, typ, id, err := c.in.ReadFieldBegin(c.ctx)
		if err != nil {
			return err
		}
		if typ == thrift.STOP {
			break
		}
		if p != nil && p.drop[id] {
			had = true
			if typ == thrift.I64 {
				v, err := c.in.ReadI64(c.ctx)
				if err != nil {
					return err
				}
				if c.cut < 0 || v < c.cut {
					c.cut = v
				}
			} else if err := thrift.SkipDefaultDepth(c.ctx, c.in, typ); err != nil {
				return err
			}
			continue
		}
		var sub *thriftPath
		if p != nil {
			sub = p.fields[id]
		}
		if err := c.out.WriteFieldBegin(c.ctx, "", typ, id); err != nil {
			return err
		}
		if err := c.value(typ, sub); err != nil {
			return err
		}
		if err := c.out.WriteFieldEnd(c.ctx); err != nil {
			return err
		}
	}
	if err := c.in.ReadStructEnd(c.ctx); err != nil {
		return err
	}
	if had {
		c.dropped++
	}
	if err := c.out.WriteFieldStop(c.ctx); err != nil {
		return err
	}
	return c.out.WriteStructEnd(c.ctx)
}

// value copies one value of type typ; p applies to a struct, or to the
// elements of a list or set.
func (c *thriftCopier) value(typ thrift.TType, p *thriftPath) error {
	switch typ {
	case thrift.BOOL:
		v, err := c.in.ReadBool(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteBool(c.ctx, v)
	case thrift.BYTE:
		v, err := c.in.ReadByte(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteByte(c.ctx, v)
	case thrift.I16:
		v, err := c.in.ReadI16(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteI16(c.ctx, v)
	case thrift.I32:
		v, err := c.in.ReadI32(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteI32(c.ctx, v)
	case thrift.I64:
		v, err := c.in.ReadI64(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteI64(c.ctx, v)
	case thrift.DOUBLE:
		v, err := c.in.ReadDouble(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteDouble(c.ctx, v)
	case thrift.STRING:
		v, err := c.in.ReadBinary(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteBinary(c.ctx, v)
	case thrift.UUID:
		v, err := c.in.ReadUUID(c.ctx)
		if err != nil {
			return err
		}
		return c.out.WriteUUID(c.ctx, v)
	case thrift.STRUCT:
		return c.structure(p)
	case thrift.LIST, thrift.SET:
		elem, n, err := c.in.ReadListBegin(c.ctx) // a set has the same header
		if err != nil {
			return err
		}
		if err := c.out.WriteListBegin(c.ctx, elem, n); err != nil {
			return err
		}
		for range n {
			if err := c.value(elem, p); err != nil {
				return err
			}
		}
		return c.out.WriteListEnd(c.ctx)
	case thrift.MAP:
		k, v, n, err := c.in.ReadMapBegin(c.ctx)
		if err != nil {
			return err
		}
		if err := c.out.WriteMapBegin(c.ctx, k, v, n); err != nil {
			return err
		}
		for range n {
			if err := c.value(k, nil); err != nil {
				return err
			}
			if err := c.value(v, nil); err != nil {
				return err
			}
		}
		return c.out.WriteMapEnd(c.ctx)
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}
