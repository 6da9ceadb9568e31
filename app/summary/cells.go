package summary

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/app/turtle"
	"github.com/tensorview/tensorview/tensorext"
)

// MaxTextLen is how many characters of a cell's text are shown.
const MaxTextLen = 200

// Cell is what the viewer shows for one value.
type Cell struct {
	Text   string // the value as text (non-tensor cells, and broken tensor columns)
	Null   bool
	Tensor *Tensor
	Nested *Nested // a nested record batch (arrow.turtle)
	Err    string  // why this value could not be decoded
}

// At returns the cell of column col at global row of f, its preview (if
// any) at most raster.MaxPreviewSide pixels a side. It never panics: a
// panic inside arrow-go, tensorext or the previews becomes the cell's Err.
func At(f *decode.File, row int64, col int) Cell {
	return In(f, row, col, raster.MaxPreviewSide, raster.MaxPreviewSide)
}

// In is At with an image preview of at most maxW×maxH pixels (at most
// raster.MaxPreviewSide on each side): the table draws its previews at
// their displayed size, in device pixels. A strip (an embedding,
// raster.Strip) keeps one pixel per element up to raster.MaxPreviewSide
// whatever the box.
func In(f *decode.File, row int64, col int, maxW, maxH int) (c Cell) {
	defer func() {
		if r := recover(); r != nil {
			if repanic {
				panic(r)
			}
			c = Cell{Err: fmt.Errorf("%w: %v", decode.ErrPanic, r).Error()}
		}
	}()
	v, err := f.Value(row, col)
	if err != nil {
		return Cell{Err: err.Error()}
	}
	switch fld := v.Field; {
	case fld.Nested:
		if ta, ok := v.Array.(*turtle.Array); ok {
			return nestedCell(v, ta)
		}
	case fld.Images:
		if c, ok := encodedCell(v); ok {
			return c
		}
	case fld.Tensor != nil:
		return tensorSummary(v, maxW, maxH)
	}
	if v.Array.IsNull(v.Index) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	return Cell{Text: truncate(valueStr(v.Array, v.Index))}
}

// repanic makes In panic again rather than recover, for a stack trace in
// tests (TENSORVIEW_REPANIC=1 go test -run FuzzOpen/…), as decode's guards
// do.
var repanic = os.Getenv("TENSORVIEW_REPANIC") != ""

// valueStr is arrow-go's ValueStr with float16 exact at any depth
// (tensorext.ValueStr), falling back to the storage of an extension array
// whose type does not implement it.
func valueStr(arr arrow.Array, i int) (s string) {
	if ext, ok := arr.(array.ExtensionArray); ok {
		defer func() {
			if recover() != nil {
				s = valueStr(ext.Storage(), i)
			}
		}()
	}
	if st, ok := arr.(*array.Struct); ok {
		if tensorext.HasFloat16(st.DataType()) {
			return structStr(st, i) // its fields' valueStr: float16 exact
		}
		// arrow-go's Struct.ValueStr marshals the row as JSON and panics
		// on a NaN or infinite float in it ("json: unsupported value:
		// NaN"): the fields' own texts instead.
		defer func() {
			if recover() != nil {
				s = structStr(st, i)
			}
		}()
	}
	return tensorext.ValueStr(arr, i)
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

func truncate(s string) string { return Truncate(s, MaxTextLen) }

// Truncate shortens s to n characters, marking a cut with "…".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
