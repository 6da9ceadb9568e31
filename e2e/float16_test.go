//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/summary"
)

// The float16 values of float16Lists's file: 2^-24 (the smallest
// subnormal), -0, +Inf, -Inf, NaN, 65504 (the largest finite), 0.7 as the
// writer rounds it (0x399a, 0.7001953125) and the largest subnormal.
var f16Bits = []uint16{0x0001, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0x399a, 0x03ff}

// f16Value decodes binary16 bits by the IEEE 754 formula, independently of
// the viewer's conversion.
func f16Value(b uint16) float64 {
	sign := 1.0
	if b&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(b>>10&0x1f), float64(b&0x3ff)
	switch {
	case exp == 0:
		return sign * frac * math.Ldexp(1, -24)
	case exp == 0x1f && frac != 0:
		return math.NaN()
	case exp == 0x1f:
		return math.Inf(int(sign))
	}
	return sign * (1 + frac/1024) * math.Ldexp(1, exp-15)
}

// f16Text is a float16 value's text alone: the shortest decimal of its
// float32 (as the viewer writes every float32 cell).
func f16Text(b uint16) string { return strconv.FormatFloat(f16Value(b), 'g', -1, 32) }

// f16JSON is a float16 value's text inside a list, map, struct or union's
// JSON: as arrow-go writes a float32 there (encoding/json: the site is
// built with arrow_json_stdlib), non-finite values as strings.
func f16JSON(b uint16) string {
	v := f16Value(b)
	switch {
	case math.IsNaN(v):
		return `"NaN"`
	case math.IsInf(v, 1):
		return `"+Inf"`
	case math.IsInf(v, -1):
		return `"-Inf"`
	}
	out, _ := json.Marshal(float32(v))
	return string(out)
}

// jsonList is the JSON list of the float16 values of bits (a negative
// entry: null).
func jsonList(bits ...int) string {
	s := make([]string, len(bits))
	for k, i := range bits {
		if i < 0 {
			s[k] = "null"
		} else {
			s[k] = f16JSON(f16Bits[i])
		}
	}
	return "[" + strings.Join(s, ",") + "]"
}

// float16ListsFile writes two rows of float16 values inside every nested
// type that is not read as a tensor (a list view, a ragged and a regular
// list of lists, a list of structs, a map, a dictionary, a run-end encoded
// column, a struct holding a list, a dense union) and a plain list (a 1-D
// tensor). It returns the texts the cells must show, row by row, computed
// from the bits; a "!" first: the row's error, then that text.
func float16ListsFile(t *testing.T) (path string, want map[string][2]string) {
	mem := memory.DefaultAllocator
	h := arrow.FixedWidthTypes.Float16
	leaf := func(idx ...int) arrow.Array { // f16Bits[idx], -1 null
		b := array.NewFloat16Builder(mem)
		defer b.Release()
		for _, i := range idx {
			if i < 0 {
				b.AppendNull()
			} else {
				b.Append(float16.FromBits(f16Bits[i]))
			}
		}
		return b.NewArray()
	}
	i32 := func(v ...int32) *memory.Buffer { return memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(v)) }
	var cols []arrow.Array
	var fields []arrow.Field
	add := func(name string, a arrow.Array) {
		fields, cols = append(fields, arrow.Field{Name: name, Type: a.DataType(), Nullable: true}), append(cols, a)
	}
	want = map[string][2]string{}

	// A list view: its rows' values out of order in the child.
	lvVals := leaf(5, 6, -1, 0, 1, 2, 3, 4)
	add("lv", array.NewListViewData(array.NewData(arrow.ListViewOf(h), 2, []*memory.Buffer{nil, i32(3, 0), i32(5, 3)}, []arrow.ArrayData{lvVals.Data()}, 0, 0)))
	want["lv"] = [2]string{jsonList(0, 1, 2, 3, 4), jsonList(5, 6, -1)}
	if want["lv"][0] != `[5.9604645e-8,-0,"+Inf","-Inf","NaN"]` || want["lv"][1] != `[65504,0.7001953,null]` {
		t.Fatalf("the expected texts are not what they were written out to be: %q", want["lv"])
	}

	// Lists of lists: row 0 ragged (the row's error, its text), row 1 a
	// 2×2 tensor.
	llVals := leaf(0, 1, 2, 3, 4, 5, 6)
	inner := array.NewData(arrow.ListOf(h), 4, []*memory.Buffer{nil, i32(0, 2, 3, 5, 7)}, []arrow.ArrayData{llVals.Data()}, 0, 0)
	add("ll", array.NewListData(array.NewData(arrow.ListOf(arrow.ListOf(h)), 2, []*memory.Buffer{nil, i32(0, 2, 4)}, []arrow.ArrayData{inner}, 0, 0)))
	want["ll"] = [2]string{"!" + "[" + jsonList(0, 1) + "," + jsonList(2) + "]",
		fmt.Sprintf("[[%s %s] [%s %s]]", f16Text(f16Bits[3]), f16Text(f16Bits[4]), f16Text(f16Bits[5]), f16Text(f16Bits[6]))}

	// A list of structs.
	ptX := leaf(0, 4, -1)
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b", "c"}, nil)
	ptName := sb.NewArray()
	st, err := array.NewStructArray([]arrow.Array{ptName, ptX}, []string{"name", "x"})
	if err != nil {
		t.Fatal(err)
	}
	add("pts", array.NewListData(array.NewData(arrow.ListOf(st.DataType()), 2, []*memory.Buffer{nil, i32(0, 2, 3)}, []arrow.ArrayData{st.Data()}, 0, 0)))
	want["pts"] = [2]string{
		fmt.Sprintf(`[{"name":"a","x":%s},{"name":"b","x":%s}]`, f16JSON(f16Bits[0]), f16JSON(f16Bits[4])),
		`[{"name":"c","x":null}]`}

	// A map.
	mb := array.NewMapBuilder(mem, arrow.BinaryTypes.String, h, false)
	kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.Float16Builder)
	mb.Append(true)
	kb.Append("k")
	ib.Append(float16.FromBits(f16Bits[0]))
	kb.Append("l")
	ib.Append(float16.FromBits(f16Bits[2]))
	mb.Append(true)
	kb.Append("m")
	ib.Append(float16.FromBits(f16Bits[6]))
	add("m", mb.NewArray())
	want["m"] = [2]string{
		fmt.Sprintf(`[{"key":"k","value":%s},{"key":"l","value":%s}]`, f16JSON(f16Bits[0]), f16JSON(f16Bits[2])),
		fmt.Sprintf(`[{"key":"m","value":%s}]`, f16JSON(f16Bits[6]))}

	// A dictionary and a run-end encoded column: values alone.
	idx := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, 2, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{2, 0})}, nil, 0, 0))
	add("d", array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: h}, idx, leaf(0, 6, 7)))
	want["d"] = [2]string{f16Text(f16Bits[7]), f16Text(f16Bits[0])}
	ends := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 2, []*memory.Buffer{nil, i32(1, 2)}, nil, 0, 0))
	add("ree", array.NewRunEndEncodedArray(ends, leaf(7, 0), 2, 0))
	want["ree"] = [2]string{f16Text(f16Bits[7]), f16Text(f16Bits[0])}

	// A struct holding a list (its fields' texts, in order).
	sl := array.NewListData(array.NewData(arrow.ListOf(h), 2, []*memory.Buffer{nil, i32(0, 2, 3)}, []arrow.ArrayData{leaf(0, 4, 7).Data()}, 0, 0))
	s, err := array.NewStructArray([]arrow.Array{sl}, []string{"v"})
	if err != nil {
		t.Fatal(err)
	}
	add("s", s)
	want["s"] = [2]string{`{"v":` + jsonList(0, 4) + `}`, `{"v":` + jsonList(7) + `}`}

	// A dense union of a float16 and an int32.
	codes := array.NewInt8Data(array.NewData(arrow.PrimitiveTypes.Int8, 2, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{0, 1})}, nil, 0, 0))
	offs := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 2, []*memory.Buffer{nil, i32(0, 0)}, nil, 0, 0))
	ints := array.NewInt32Data(array.NewData(arrow.PrimitiveTypes.Int32, 1, []*memory.Buffer{nil, i32(7)}, nil, 0, 0))
	u, err := array.NewDenseUnionFromArraysWithFields(codes, offs, []arrow.Array{leaf(0), ints}, []string{"h", "i"})
	if err != nil {
		t.Fatal(err)
	}
	add("u", u)
	want["u"] = [2]string{"[0," + f16JSON(f16Bits[0]) + "]", "[1,7]"}

	// A plain list: a 1-D tensor, its values listed.
	add("plain", array.NewListData(array.NewData(arrow.ListOf(h), 2, []*memory.Buffer{nil, i32(0, 3, 4)}, []arrow.ArrayData{leaf(0, 1, 5, 6).Data()}, 0, 0)))
	want["plain"] = [2]string{
		fmt.Sprintf("[%s %s %s]", f16Text(f16Bits[0]), f16Text(f16Bits[1]), f16Text(f16Bits[5])),
		fmt.Sprintf("[%s]", f16Text(f16Bits[6]))}

	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, cols, 2)
	defer rec.Release()
	return writeIPCFile(t, "float16_lists.arrow", schema, rec), want
}

// TestFloat16TextsDecoded is TestFloat16Texts without a browser: the cells
// decode and summary make of the same file (the texts the page shows). It
// needs no site, so go test ./... runs it too.
func TestFloat16TextsDecoded(t *testing.T) {
	t.Parallel()
	path, want := float16ListsFile(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := decode.Open("float16_lists.arrow", data)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Without the build tag arrow_json_stdlib (the site's), arrow-go writes
	// JSON with goccy/go-json, whose exponents have two digits at least (the
	// texts of values alone have two digits in either build).
	probe := array.NewFloat32Data(array.NewData(arrow.PrimitiveTypes.Float32, 1, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float32Traits.CastToBytes([]float32{1e-8}))}, nil, 0, 0))
	defer probe.Release()
	js, _ := probe.MarshalJSON()
	twoDigits := regexp.MustCompile(`(e-)(\d)\b`)
	for c, fld := range f.Fields() {
		for r, w := range want[fld.Name] {
			if string(js) == "[1e-08]" {
				w = twoDigits.ReplaceAllString(w, "${1}0$2")
			}
			cell := summary.At(f, int64(r), c)
			got := cell.Text
			switch {
			case strings.HasPrefix(w, "!"):
				got = "!" + got
				if cell.Err == "" {
					got = "(no error) " + got
				}
			case cell.Tensor != nil:
				got = cell.Tensor.Values
			}
			if got != w {
				t.Errorf("%s row %d: %q (error %q), want %q", fld.Name, r, got, cell.Err, w)
			}
		}
	}
}

// TestFloat16Texts opens a file of float16 values in lists, list views,
// maps, structs, dictionaries, run-end encoded columns and unions, and
// checks that every cell shows the exact values (subnormals, -0, ±Inf,
// NaN, 65504, 0.7 rounded), computed from their bits: arrow-go's own texts
// show 2^-24 as 1.148e-41 and fail on NaN in structs and unions.
func TestFloat16Texts(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, want := float16ListsFile(t)
	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("float16_lists.arrow")
	for field, rows := range want {
		for r, w := range rows {
			var got struct{ Text, Err, Values string }
			b.eval(fmt.Sprintf(`(c => ({Text: c.querySelector('.text')?.textContent ?? '', Err: c.dataset.cellError || '',
				Values: [...c.querySelectorAll('.summary > div')].map(d => d.textContent).pop() ?? ''}))(document.querySelector('[data-row="%d"] [data-field=%q]'))`, r, field), &got)
			switch {
			case strings.HasPrefix(w, "!"):
				if got.Err == "" || got.Text != w[1:] {
					t.Errorf("%s row %d: %+v, want an error and the text %s", field, r, got, w[1:])
				}
			case strings.HasPrefix(w, "[[") && field == "ll", field == "plain":
				if got.Values != w {
					t.Errorf("%s row %d: the tensor lists %q, want %q (%+v)", field, r, got.Values, w, got)
				}
			default:
				if got.Err != "" || got.Text != w {
					t.Errorf("%s row %d: %+v, want the text %s", field, r, got, w)
				}
			}
		}
	}
	b.screenshot("float16-texts")
	b.narrow("float16-texts-360", `[data-role=file-info]`)
}
