package summary

// A minimal reader of the Arrow integration JSON format (Arrow's
// docs/source/format/Integration.rst), for the few JSON twins of the
// arrow-testing gold files that npm's apache-arrow reads wrongly or not at
// all (see jsTwinProblems). It reads only the types those twins hold (and
// their obvious neighbours); anything else is an error, never a guess.

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

type jsonFile struct {
	Schema struct {
		Fields []jsonField `json:"fields"`
	} `json:"schema"`
	Batches []struct {
		Count   int          `json:"count"`
		Columns []jsonColumn `json:"columns"`
	} `json:"batches"`
	Dictionaries []json.RawMessage `json:"dictionaries"`
}

type jsonField struct {
	Name       string          `json:"name"`
	Nullable   bool            `json:"nullable"`
	Type       jsonType        `json:"type"`
	Children   []jsonField     `json:"children"`
	Dictionary json.RawMessage `json:"dictionary"`
}

type jsonType struct {
	Name      string          `json:"name"`
	BitWidth  int             `json:"bitWidth"`
	IsSigned  bool            `json:"isSigned"`
	Precision json.RawMessage `json:"precision"` // "SINGLE" for floats, a number for decimals
	Scale     int32           `json:"scale"`
	Unit      string          `json:"unit"`
	Mode      string          `json:"mode"`
	TypeIDs   []int           `json:"typeIds"`
}

type jsonColumn struct {
	Name     string            `json:"name"`
	Count    int               `json:"count"`
	Validity []int             `json:"VALIDITY"`
	Data     []json.RawMessage `json:"DATA"`
	Offset   []json.RawMessage `json:"OFFSET"` // numbers, or strings for 64-bit offsets
	Size     []json.RawMessage `json:"SIZE"`
	TypeID   []int             `json:"TYPE_ID"`
	Children []jsonColumn      `json:"children"`
}

// readJSONTwin reads a gzipped integration JSON file: its schema and, for
// each column, one array per record batch.
func readJSONTwin(path string) (*arrow.Schema, [][]arrow.Array, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, nil, err
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, nil, err
	}
	var jf jsonFile
	if err := json.Unmarshal(text, &jf); err != nil {
		return nil, nil, err
	}
	if len(jf.Dictionaries) > 0 {
		return nil, nil, fmt.Errorf("dictionaries are not read by this reader")
	}
	fields := make([]arrow.Field, len(jf.Schema.Fields))
	for i, f := range jf.Schema.Fields {
		if fields[i], err = jsonArrowField(f); err != nil {
			return nil, nil, err
		}
	}
	cols := make([][]arrow.Array, len(fields))
	for b, batch := range jf.Batches {
		if len(batch.Columns) != len(fields) {
			return nil, nil, fmt.Errorf("batch %d has %d columns, the schema %d", b, len(batch.Columns), len(fields))
		}
		for c, col := range batch.Columns {
			arr, err := jsonArray(fields[c].Type, col)
			if err != nil {
				return nil, nil, fmt.Errorf("batch %d column %q: %w", b, col.Name, err)
			}
			if arr.Len() != batch.Count {
				return nil, nil, fmt.Errorf("batch %d column %q: %d values, the batch %d", b, col.Name, arr.Len(), batch.Count)
			}
			cols[c] = append(cols[c], arr)
		}
	}
	return arrow.NewSchema(fields, nil), cols, nil
}

func jsonArrowField(f jsonField) (arrow.Field, error) {
	if len(f.Dictionary) > 0 {
		return arrow.Field{}, fmt.Errorf("field %q: dictionaries are not read by this reader", f.Name)
	}
	children := make([]arrow.Field, len(f.Children))
	for i, c := range f.Children {
		var err error
		if children[i], err = jsonArrowField(c); err != nil {
			return arrow.Field{}, err
		}
	}
	t := f.Type
	var dt arrow.DataType
	switch t.Name {
	case "null":
		dt = arrow.Null
	case "bool":
		dt = arrow.FixedWidthTypes.Boolean
	case "int":
		ints := map[[2]int]arrow.DataType{
			{8, 1}: arrow.PrimitiveTypes.Int8, {16, 1}: arrow.PrimitiveTypes.Int16,
			{32, 1}: arrow.PrimitiveTypes.Int32, {64, 1}: arrow.PrimitiveTypes.Int64,
			{8, 0}: arrow.PrimitiveTypes.Uint8, {16, 0}: arrow.PrimitiveTypes.Uint16,
			{32, 0}: arrow.PrimitiveTypes.Uint32, {64, 0}: arrow.PrimitiveTypes.Uint64,
		}
		signed := 0
		if t.IsSigned {
			signed = 1
		}
		dt = ints[[2]int{t.BitWidth, signed}]
	case "floatingpoint":
		dt = map[string]arrow.DataType{`"HALF"`: arrow.FixedWidthTypes.Float16,
			`"SINGLE"`: arrow.PrimitiveTypes.Float32, `"DOUBLE"`: arrow.PrimitiveTypes.Float64}[string(t.Precision)]
	case "utf8":
		dt = arrow.BinaryTypes.String
	case "largeutf8":
		dt = arrow.BinaryTypes.LargeString
	case "binary":
		dt = arrow.BinaryTypes.Binary
	case "largebinary":
		dt = arrow.BinaryTypes.LargeBinary
	case "decimal":
		p, err := strconv.Atoi(string(t.Precision))
		if err != nil {
			return arrow.Field{}, fmt.Errorf("field %q: decimal precision %s", f.Name, t.Precision)
		}
		switch t.BitWidth {
		case 32:
			dt = &arrow.Decimal32Type{Precision: int32(p), Scale: t.Scale}
		case 64:
			dt = &arrow.Decimal64Type{Precision: int32(p), Scale: t.Scale}
		case 0, 128:
			dt = &arrow.Decimal128Type{Precision: int32(p), Scale: t.Scale}
		case 256:
			dt = &arrow.Decimal256Type{Precision: int32(p), Scale: t.Scale}
		}
	case "interval":
		dt = map[string]arrow.DataType{"YEAR_MONTH": arrow.FixedWidthTypes.MonthInterval,
			"DAY_TIME": arrow.FixedWidthTypes.DayTimeInterval, "MONTH_DAY_NANO": arrow.FixedWidthTypes.MonthDayNanoInterval}[t.Unit]
	case "listview", "largelistview":
		if len(children) != 1 {
			return arrow.Field{}, fmt.Errorf("field %q: a list view has one child", f.Name)
		}
		if t.Name == "listview" {
			dt = arrow.ListViewOfField(children[0])
		} else {
			dt = arrow.LargeListViewOfField(children[0])
		}
	case "runendencoded":
		if len(children) != 2 {
			return arrow.Field{}, fmt.Errorf("field %q: run-end encoded has two children", f.Name)
		}
		ree := arrow.RunEndEncodedOf(children[0].Type, children[1].Type)
		ree.ValueNullable = children[1].Nullable
		dt = ree
	case "struct":
		dt = arrow.StructOf(children...)
	case "union":
		codes := make([]arrow.UnionTypeCode, len(t.TypeIDs))
		for i, c := range t.TypeIDs {
			codes[i] = arrow.UnionTypeCode(c)
		}
		switch t.Mode {
		case "SPARSE":
			dt = arrow.SparseUnionOf(children, codes)
		case "DENSE":
			dt = arrow.DenseUnionOf(children, codes)
		}
	}
	if dt == nil {
		return arrow.Field{}, fmt.Errorf("field %q: type %+v is not read by this reader", f.Name, t)
	}
	return arrow.Field{Name: f.Name, Type: dt, Nullable: f.Nullable}, nil
}

// jsonArray makes the array of a column of type dt.
func jsonArray(dt arrow.DataType, c jsonColumn) (arr arrow.Array, err error) {
	defer func() {
		if r := recover(); r != nil { // arrow-go's constructors panic on bad buffers
			err = fmt.Errorf("%s: %v", dt, r)
		}
	}()
	data, err := jsonData(dt, c)
	if err != nil {
		return nil, err
	}
	arr = array.MakeFromData(data)
	if v, ok := arr.(interface{ ValidateFull() error }); ok {
		if err := v.ValidateFull(); err != nil {
			return nil, fmt.Errorf("%s: %w", dt, err)
		}
	}
	return arr, nil
}

func jsonData(dt arrow.DataType, c jsonColumn) (arrow.ArrayData, error) {
	n := c.Count
	var validity *memory.Buffer
	nulls := 0
	if len(c.Validity) > 0 {
		if len(c.Validity) != n {
			return nil, fmt.Errorf("%d validity entries for %d values", len(c.Validity), n)
		}
		bits := make([]byte, (n+7)/8)
		for i, v := range c.Validity {
			if v != 0 {
				bits[i/8] |= 1 << (i % 8)
			} else {
				nulls++
			}
		}
		validity = memory.NewBufferBytes(bits)
	}
	var b []byte
	le := binary.LittleEndian
	each := func(fn func(text string) error) error {
		if len(c.Data) != n {
			return fmt.Errorf("%d values in DATA for %d", len(c.Data), n)
		}
		for _, raw := range c.Data {
			if err := fn(unquote(raw)); err != nil {
				return err
			}
		}
		return nil
	}
	fixed := func(fn func(text string) error) (arrow.ArrayData, error) {
		if err := each(fn); err != nil {
			return nil, err
		}
		return array.NewData(dt, n, []*memory.Buffer{validity, memory.NewBufferBytes(b)}, nil, nulls, 0), nil
	}
	children := func(types ...arrow.DataType) ([]arrow.ArrayData, error) {
		if len(c.Children) != len(types) {
			return nil, fmt.Errorf("%d children, the type has %d", len(c.Children), len(types))
		}
		out := make([]arrow.ArrayData, len(types))
		for i, t := range types {
			var err error
			if out[i], err = jsonData(t, c.Children[i]); err != nil {
				return nil, fmt.Errorf("child %q: %w", c.Children[i].Name, err)
			}
		}
		return out, nil
	}
	offsets := func(raws []json.RawMessage, width int) (*memory.Buffer, error) {
		var o []byte
		for _, raw := range raws {
			v, err := strconv.ParseInt(unquote(raw), 10, 64)
			if err != nil {
				return nil, err
			}
			if width == 4 {
				o = le.AppendUint32(o, uint32(v))
			} else {
				o = le.AppendUint64(o, uint64(v))
			}
		}
		return memory.NewBufferBytes(o), nil
	}

	switch t := dt.(type) {
	case *arrow.NullType:
		return array.NewData(dt, n, []*memory.Buffer{nil}, nil, n, 0), nil
	case *arrow.BooleanType:
		b = make([]byte, (n+7)/8)
		i := 0
		return fixed(func(s string) error {
			if s == "true" || s == "1" {
				b[i/8] |= 1 << (i % 8)
			}
			i++
			return nil
		})
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type:
		width := t.(arrow.FixedWidthDataType).BitWidth()
		return fixed(func(s string) error {
			v, err := strconv.ParseInt(s, 10, width)
			b = le.AppendUint64(b, uint64(v))[:len(b)+width/8]
			return err
		})
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type, *arrow.Uint64Type:
		width := t.(arrow.FixedWidthDataType).BitWidth()
		return fixed(func(s string) error {
			v, err := strconv.ParseUint(s, 10, width)
			b = le.AppendUint64(b, v)[:len(b)+width/8]
			return err
		})
	case *arrow.Float16Type, *arrow.Float32Type, *arrow.Float64Type:
		return fixed(func(s string) error {
			v, err := strconv.ParseFloat(s, 64)
			switch dt.ID() {
			case arrow.FLOAT16:
				b = le.AppendUint16(b, float16.New(float32(v)).Uint16())
			case arrow.FLOAT32:
				b = le.AppendUint32(b, math.Float32bits(float32(v)))
			default:
				b = le.AppendUint64(b, math.Float64bits(v))
			}
			return err
		})
	case *arrow.Decimal32Type, *arrow.Decimal64Type, *arrow.Decimal128Type, *arrow.Decimal256Type:
		return fixed(func(s string) error {
			v, ok := new(big.Int).SetString(s, 10)
			if !ok {
				return fmt.Errorf("decimal %q", s)
			}
			switch dt.ID() {
			case arrow.DECIMAL32:
				b = le.AppendUint32(b, uint32(int32(v.Int64())))
			case arrow.DECIMAL64:
				b = le.AppendUint64(b, uint64(v.Int64()))
			case arrow.DECIMAL128:
				d := decimal128.FromBigInt(v)
				b = le.AppendUint64(le.AppendUint64(b, d.LowBits()), uint64(d.HighBits()))
			default:
				for _, w := range decimal256.FromBigInt(v).Array() {
					b = le.AppendUint64(b, w)
				}
			}
			return nil
		})
	case *arrow.MonthIntervalType:
		return fixed(func(s string) error {
			v, err := strconv.ParseInt(s, 10, 32)
			b = le.AppendUint32(b, uint32(v))
			return err
		})
	case *arrow.DayTimeIntervalType, *arrow.MonthDayNanoIntervalType:
		return fixed(func(s string) error {
			var v struct {
				Months, Days, Milliseconds int32
				Nanoseconds                int64
			}
			d := json.NewDecoder(bytes.NewReader([]byte(s)))
			if err := d.Decode(&v); err != nil { // exact: Nanoseconds is an int64
				return err
			}
			if dt.ID() == arrow.INTERVAL_DAY_TIME {
				b = le.AppendUint32(le.AppendUint32(b, uint32(v.Days)), uint32(v.Milliseconds))
			} else {
				b = le.AppendUint64(le.AppendUint32(le.AppendUint32(b, uint32(v.Months)), uint32(v.Days)), uint64(v.Nanoseconds))
			}
			return nil
		})
	case *arrow.StringType, *arrow.LargeStringType, *arrow.BinaryType, *arrow.LargeBinaryType:
		width := 4
		if dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY {
			width = 8
		}
		if err := each(func(s string) error {
			if dt.ID() == arrow.STRING || dt.ID() == arrow.LARGE_STRING {
				b = append(b, s...)
				return nil
			}
			h, err := hex.DecodeString(s)
			b = append(b, h...)
			return err
		}); err != nil {
			return nil, err
		}
		if len(c.Offset) != n+1 {
			return nil, fmt.Errorf("%d offsets for %d values", len(c.Offset), n)
		}
		o, err := offsets(c.Offset, width)
		if err != nil {
			return nil, err
		}
		return array.NewData(dt, n, []*memory.Buffer{validity, o, memory.NewBufferBytes(b)}, nil, nulls, 0), nil
	case *arrow.ListViewType, *arrow.LargeListViewType:
		width := 4
		if dt.ID() == arrow.LARGE_LIST_VIEW {
			width = 8
		}
		if len(c.Offset) != n || len(c.Size) != n {
			return nil, fmt.Errorf("%d offsets and %d sizes for %d values", len(c.Offset), len(c.Size), n)
		}
		o, err := offsets(c.Offset, width)
		if err != nil {
			return nil, err
		}
		sizes, err := offsets(c.Size, width)
		if err != nil {
			return nil, err
		}
		ch, err := children(t.(arrow.ListLikeType).Elem())
		if err != nil {
			return nil, err
		}
		return array.NewData(dt, n, []*memory.Buffer{validity, o, sizes}, ch, nulls, 0), nil
	case *arrow.StructType:
		types := make([]arrow.DataType, t.NumFields())
		for i, f := range t.Fields() {
			types[i] = f.Type
		}
		ch, err := children(types...)
		if err != nil {
			return nil, err
		}
		return array.NewData(dt, n, []*memory.Buffer{validity}, ch, nulls, 0), nil
	case *arrow.RunEndEncodedType:
		ch, err := children(t.RunEnds(), t.Encoded())
		if err != nil {
			return nil, err
		}
		return array.NewData(dt, n, []*memory.Buffer{nil}, ch, 0, 0), nil
	case arrow.UnionType:
		if len(c.TypeID) != n {
			return nil, fmt.Errorf("%d type ids for %d values", len(c.TypeID), n)
		}
		ids := make([]byte, n)
		for i, id := range c.TypeID {
			ids[i] = byte(int8(id))
		}
		types := make([]arrow.DataType, len(t.Fields()))
		for i, f := range t.Fields() {
			types[i] = f.Type
		}
		ch, err := children(types...)
		if err != nil {
			return nil, err
		}
		bufs := []*memory.Buffer{nil, memory.NewBufferBytes(ids)}
		if t.Mode() == arrow.DenseMode {
			if len(c.Offset) != n {
				return nil, fmt.Errorf("%d offsets for %d values", len(c.Offset), n)
			}
			o, err := offsets(c.Offset, 4)
			if err != nil {
				return nil, err
			}
			bufs = append(bufs, o)
		}
		return array.NewData(dt, n, bufs, ch, 0, 0), nil
	}
	return nil, fmt.Errorf("type %s is not read by this reader", dt)
}

// unquote returns a JSON value's text: a string's contents, or a number,
// boolean or object as written.
func unquote(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
