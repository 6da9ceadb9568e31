package decode

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/app/turtle"
	"github.com/tensorview/tensorview/tensorext"
)

// MaxTextLen is how many characters of a cell's text are shown.
const MaxTextLen = 200

// InlineValues is the largest tensor whose values a cell lists.
const InlineValues = 16

// Cell is what the viewer shows for one value.
type Cell struct {
	Text   string // the value as text (non-tensor cells, and broken tensor columns)
	Null   bool
	Tensor *TensorCell
	Nested *NestedCell // a nested record batch (arrow.turtle)
	Err    string      // why this value could not be decoded
}

// TensorCell summarises one tensor.
type TensorCell struct {
	Shape           []int // physical
	LogicalShape    []int
	DimNames        []string // physical order; nil if unnamed
	LogicalDimNames []string
	ValueType       string
	Len             int
	Values          string // the values in logical order, for tensors of at most InlineValues elements
	Min, Max        string // empty when there is no finite numeric value
	Preview         *image.RGBA
	PreviewKind     raster.Kind
	// Image is set for an encoded image (PNG, JPEG, GIF, WebP bytes): the
	// shape above comes from its header, and its thumbnail (PreviewKind)
	// is drawn from Image.Bytes by the page rather than held in Preview.
	Image *Encoded
}

// Cell returns the cell of column col at global row. It never panics: a
// panic inside arrow-go or tensorext becomes the cell's Err.
func (f *File) Cell(row int64, col int) (c Cell) {
	return f.CellIn(row, col, raster.MaxPreviewSide, raster.MaxPreviewSide)
}

// CellIn is Cell with an image preview of at most maxW×maxH pixels (at
// most raster.MaxPreviewSide on each side): the table draws its previews
// at their displayed size. A strip (an embedding, raster.Strip) keeps one
// pixel per element up to raster.MaxPreviewSide whatever the box.
func (f *File) CellIn(row int64, col int, maxW, maxH int) (c Cell) {
	defer func() {
		if r := recover(); r != nil {
			if repanic {
				panic(r)
			}
			c = Cell{Err: recovered(r).Error()}
		}
	}()
	if col < 0 || col >= len(f.fields) {
		return Cell{Err: fmt.Sprintf("no column %d", col)}
	}
	ch, i, err := f.rowData(context.Background(), row)
	if err != nil {
		return Cell{Err: err.Error()}
	}
	if col >= len(ch.colErr) {
		return Cell{Err: fmt.Sprintf("no column %d in this record batch", col)}
	}
	if e := ch.colErr[col]; e != "" {
		return Cell{Err: e}
	}
	arr := ch.rec.Column(col)
	if ta, ok := arr.(*turtle.Array); ok && f.fields[col].Nested {
		return f.nestedCell(ta, i)
	}
	if bytesOf := f.images[col]; bytesOf != nil {
		if c, ok := encodedCell(bytesOf, arr, i); ok {
			return c
		}
	} else if tr := f.tensors[col]; tr != nil {
		return tensorCell(tr, arr, i, maxW, maxH)
	}
	if arr.IsNull(i) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	return Cell{Text: truncate(valueStr(arr, i))}
}

// valueStr is arrow-go's ValueStr, falling back to the storage of an
// extension array whose type does not implement it.
func valueStr(arr arrow.Array, i int) (s string) {
	if ext, ok := arr.(array.ExtensionArray); ok {
		defer func() {
			if recover() != nil {
				s = valueStr(ext.Storage(), i)
			}
		}()
	}
	if st, ok := arr.(*array.Struct); ok {
		// arrow-go's Struct.ValueStr marshals the row as JSON and panics
		// on a NaN or infinite float in it ("json: unsupported value:
		// NaN"): the fields' own texts instead.
		defer func() {
			if recover() != nil {
				s = structStr(st, i)
			}
		}()
	}
	return arr.ValueStr(i)
}

// structStr is row i of a struct array as {"name":value,...}, each value
// its field's valueStr (strings quoted), null fields null.
func structStr(st *array.Struct, i int) string {
	if st.IsNull(i) {
		return array.NullValueStr
	}
	var b strings.Builder
	b.WriteByte('{')
	for k, f := range st.DataType().(*arrow.StructType).Fields() {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.Name) + ":")
		child := st.Field(k)
		switch {
		case child.IsNull(i):
			b.WriteString("null")
		case child.DataType().ID() == arrow.STRING || child.DataType().ID() == arrow.LARGE_STRING || child.DataType().ID() == arrow.STRING_VIEW:
			b.WriteString(strconv.Quote(child.ValueStr(i)))
		default:
			b.WriteString(valueStr(child, i))
		}
	}
	b.WriteByte('}')
	return b.String()
}

type tensorArray interface {
	arrow.Array
	Tensor(i int) (tensorext.Tensor, error)
}

// encodedCell is the cell of row i of an image column when its bytes are
// an encoded image (ok false otherwise: the cell shows its value as
// text).
func encodedCell(bytesOf func(arrow.Array, int) ([]byte, bool), arr arrow.Array, i int) (Cell, bool) {
	b, ok := bytesOf(arr, i)
	if !ok {
		return Cell{}, false
	}
	e, err := encodedImage(b)
	switch {
	case err != nil:
		return Cell{Err: err.Error()}, true
	case e == nil:
		return Cell{}, false
	}
	return Cell{Tensor: imageCell(e)}, true
}

func tensorCell(read tensorReader, arr arrow.Array, i int, maxW, maxH int) Cell {
	t, err := read(arr, i)
	if errors.Is(err, tensorext.ErrNullTensor) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	if err != nil {
		storage := arr
		if ext, ok := arr.(array.ExtensionArray); ok {
			storage = ext.Storage()
		}
		return Cell{Err: err.Error(), Text: truncate(valueStr(storage, i))}
	}
	if err := t.Check(); err != nil {
		return Cell{Err: err.Error(), Text: truncate(valueStr(arr, i))}
	}
	return Cell{Tensor: SummarizeIn(t, maxW, maxH)}
}

// Summarize describes a tensor view: shapes, names, value range and, when it
// looks like an image in its logical layout, a preview.
func Summarize(t tensorext.Tensor) *TensorCell {
	return SummarizeIn(t, raster.MaxPreviewSide, raster.MaxPreviewSide)
}

// SummarizeIn is Summarize with a preview of at most maxW×maxH pixels (at
// most raster.MaxPreviewSide on each side).
func SummarizeIn(t tensorext.Tensor, maxW, maxH int) *TensorCell {
	tc := &TensorCell{
		Shape:           t.Shape,
		LogicalShape:    t.LogicalShape(),
		DimNames:        t.DimNames,
		LogicalDimNames: t.LogicalDimNames(),
		ValueType:       t.ValueType().String(),
		Len:             t.Len(),
	}
	if lo, hi, ok := raster.Range(t); ok {
		tc.Min, tc.Max = formatNumber(lo, t.ValueType()), formatNumber(hi, t.ValueType())
	}
	logical := t.Logical()
	if tc.Len <= InlineValues {
		tc.Values = logical.String()
	}
	if l, ok := raster.DetectLayout(logical.Shape, logical.DimNames, t.ValueType()); ok {
		tc.Preview = raster.PreviewIn(logical, l, maxW, maxH)
		tc.PreviewKind = l.Kind
	} else if tc.Len > InlineValues && logical.NDim() == 1 {
		// An embedding too long to list: a strip of its values.
		if tc.Preview = raster.StripPreview(logical); tc.Preview != nil {
			tc.PreviewKind = raster.Strip
		}
	}
	return tc
}

// formatNumber formats a tensor's minimum or maximum for the table: exact
// integers for integer and boolean types, else 6 significant digits of the
// value as float32 (float16, float32, and types implementing
// tensorext.FloatType that float32 holds, such as Lance's bfloat16) or
// float64.
func formatNumber(v float64, dt arrow.DataType) string {
	dt = tensorext.StandardType(dt)
	if arrow.IsInteger(dt.ID()) || dt.ID() == arrow.BOOL {
		if math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	bits := 64
	if dt.ID() == arrow.FLOAT32 || dt.ID() == arrow.FLOAT16 {
		bits = 32
	}
	return strconv.FormatFloat(v, 'g', 6, bits)
}

func truncate(s string) string { return Truncate(s, MaxTextLen) }

// Truncate shortens s to n characters, marking a cut with "…".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// Tensor returns the view of the tensor in column col at global row. It
// returns tensorext.ErrNullTensor for a null row and an error for a column
// that is not a (valid) tensor column; it never panics.
func (f *File) Tensor(row int64, col int) (t tensorext.Tensor, err error) {
	defer guard(&err, "reading the tensor")
	if col < 0 || col >= len(f.fields) {
		return t, fmt.Errorf("no column %d", col)
	}
	read := f.tensors[col]
	if read == nil {
		return t, fmt.Errorf("column %q is not a tensor column", f.fields[col].Name)
	}
	ch, i, err := f.rowData(context.Background(), row)
	if err != nil {
		return t, err
	}
	if col >= len(ch.colErr) {
		return t, fmt.Errorf("no column %d in this record batch", col)
	}
	if e := ch.colErr[col]; e != "" {
		return t, errors.New(e)
	}
	if t, err = read(ch.rec.Column(col), i); err != nil {
		return t, err
	}
	return t, t.Check()
}

// ValuesText lists a tensor's values in its view order, nested like
// Tensor.String for tensors of up to 10000 elements, else flat, cut after
// about max characters.
func ValuesText(t tensorext.Tensor, max int) string {
	if t.Len() <= 10000 {
		return Truncate(t.String(), max)
	}
	var b strings.Builder
	b.WriteString(fmt.Sprintf("%d values, first ones in order: ", t.Len()))
	t.Positions(func(pos int) bool {
		b.WriteString(t.ValueStr(pos))
		b.WriteByte(' ')
		return b.Len() < max
	})
	b.WriteString("…")
	return b.String()
}
