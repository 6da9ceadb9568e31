package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

var updateElements = flag.Bool("update-elements", false, "record testdata/elementstats.json row by row")

// elementFigures is what the inspector's column panel shows of a column,
// as JSON: floats as text, so that NaN and ±Inf round-trip and a
// difference in the last bit shows.
type elementFigures struct {
	Rows, NullRows, BadRows           int
	Count, Nulls, NaN, PosInf, NegInf int
	Finite                            int
	Min, Max, Mean, Std               string
	Hist                              []int
	HistMin, HistMax                  string
	Shapes                            []inspect.ShapeCount
	OtherShapes                       int
}

func figuresOf(c inspect.ColumnStats) elementFigures {
	g := floatText
	return elementFigures{Rows: c.Rows, NullRows: c.NullRows, BadRows: c.BadRows, Count: c.Count, Nulls: c.Nulls, NaN: c.NaN,
		PosInf: c.PosInf, NegInf: c.NegInf, Finite: c.Finite, Min: g(c.Min), Max: g(c.Max), Mean: g(c.Mean), Std: g(c.Std),
		Hist: c.Hist, HistMin: g(c.HistMin), HistMax: g(c.HistMax), Shapes: c.Shapes, OtherShapes: c.OtherShapes}
}

// elementColumns lists every tensor and image column of the testdata
// files the decoder opens, as "file/field".
func elementColumns(t *testing.T) map[string]*decode.File {
	t.Helper()
	names, err := filepath.Glob("../../testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*decode.File{}
	for _, p := range names {
		name := filepath.Base(p)
		if !strings.HasSuffix(name, ".arrow") && !strings.HasSuffix(name, ".arrows") && !strings.HasSuffix(name, ".parquet") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := decode.Open(name, data)
		if err != nil {
			continue // the files that do not open are the decoder's tests
		}
		t.Cleanup(f.Close)
		if f.Index(context.Background(), nil) != nil {
			continue
		}
		for _, fld := range f.Fields() {
			if fld.Tensor != nil || fld.Images {
				out[name+"/"+fld.Name] = f
			}
		}
	}
	return out
}

// rowByRow is the inspector's column statistics read one row at a time
// through File.Tensor, independently of the scan's record batches.
func rowByRow(f *decode.File, col int) inspect.ColumnStats {
	rows, _ := f.Rows()
	b := inspect.NewColumnStatsBuilder(elementBins)
	each := func(add func(tensorext.Tensor)) {
		for i := range rows {
			t, err := f.Tensor(i, col)
			switch {
			case errors.Is(err, tensorext.ErrNullTensor):
				b.AddNull()
			case err != nil:
				b.AddBad()
			default:
				add(t)
			}
		}
	}
	each(b.Add)
	if b.StartHistogram() {
		each(b.AddToHistogram)
	}
	return b.Stats()
}

const elementBins = 32

// golden is testdata/elementstats.json.
func golden(t *testing.T) map[string]elementFigures {
	t.Helper()
	data, err := os.ReadFile("testdata/elementstats.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]elementFigures
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

// TestElementStatsRowByRow: the builder, fed one row at a time, gives the
// figures recorded (first by the inspector's own row-by-row engine, before
// the scan computed them; -update-elements records them again).
func TestElementStatsRowByRow(t *testing.T) {
	cols := elementColumns(t)
	if *updateElements {
		out := map[string]elementFigures{}
		for key, f := range cols {
			out[key] = figuresOf(rowByRow(f, fieldIndex(f, key[strings.Index(key, "/")+1:])))
		}
		data, _ := json.MarshalIndent(out, "", "\t")
		if err := os.WriteFile("testdata/elementstats.json", append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := golden(t)
	if len(cols) != len(want) {
		t.Errorf("%d tensor and image columns in testdata, %d recorded", len(cols), len(want))
	}
	for key, f := range cols {
		got := figuresOf(rowByRow(f, fieldIndex(f, key[strings.Index(key, "/")+1:])))
		if !reflect.DeepEqual(got, want[key]) {
			t.Errorf("%s:\n got %+v\nwant %+v", key, got, want[key])
		}
	}
}

// fieldIndex is the index of f's field name, -1 when it has none (or f
// is nil).
func fieldIndex(f *decode.File, name string) int {
	if f == nil {
		return -1
	}
	for i, fld := range f.Fields() {
		if fld.Name == name {
			return i
		}
	}
	return -1
}

// floatText is f as the golden file has it: JSON's number text, or NaN,
// +Inf, -Inf.
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// TestElementStatsScan: the element statistics the scan computes (record
// batches, paced, two passes) are the figures recorded row by row, and its
// progress counts both passes.
func TestElementStatsScan(t *testing.T) {
	want := golden(t)
	for key, f := range elementColumns(t) {
		name := key[strings.Index(key, "/")+1:]
		st, err := query.NewStats(query.Operand{Column: name}, QueryColumns(f), query.StatsOptions{Elements: true, Bins: elementBins})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		var done *StatsDone
		var last StatsRows
		RunStats(context.Background(), f, st, func() {}, func(e StatsEvent) {
			switch e := e.(type) {
			case StatsDone:
				done = &e
			case StatsRows:
				last = e
			}
		})
		if done == nil || done.Err != nil || done.Sum == nil || done.Sum.Elements == nil {
			t.Errorf("%s: ended with %+v", key, done)
			continue
		}
		if got := figuresOf(*done.Sum.Elements); !reflect.DeepEqual(got, want[key]) {
			t.Errorf("%s:\n got %+v\nwant %+v", key, got, want[key])
		}
		rows, _ := f.Rows()
		if passes := int64(st.Passes()); last.Rows.Total != passes*rows || (done.Sum.Elements.Finite > 0 && last.Rows.Rows != passes*rows) {
			t.Errorf("%s: last progress %d of %d rows, want %d of %d", key, last.Rows.Rows, last.Rows.Total, passes*rows, passes*rows)
		}
	}
}

// TestElementsFollowInspector: the inspector's column statistics start
// by themselves on a small file, are kept while the inspector steps to
// another row of the column, start afresh on another column, stop on
// Cancel (a late report of the stopped scan changes nothing) and end
// when the inspector closes; a file of more than AutoElementRows rows
// waits for ElementStats.
func TestElementsFollowInspector(t *testing.T) {
	p := newFuzzPage(t)
	p.open(1) // js_big.arrow: 64 rows
	f := p.m.Shown()
	image, emb := fieldIndex(f, "image"), fieldIndex(f, "embedding")
	want := golden(t)
	deliverAll := func() {
		for len(p.pending) > 0 {
			p.deliver(0)
		}
	}
	p.do(Inspect{Col: image, Row: 3})
	el := p.m.Elements()
	if !el.Open || el.Col != image || el.Status != StatusRunning || el.Job == 0 {
		t.Fatalf("inspecting image: %+v, want its statistics running", el)
	}
	deliverAll()
	if el.Status != StatusDone || el.Sum == nil || !reflect.DeepEqual(figuresOf(*el.Sum.Elements), want["js_big.arrow/image"]) {
		t.Fatalf("image's statistics: %+v", el)
	}
	sum := el.Sum
	p.do(Inspect{Col: image, Row: 9})
	if el.Sum != sum || len(p.pending) != 0 {
		t.Errorf("another row of the column computed the statistics again")
	}
	p.do(Inspect{Col: emb, Row: 0})
	if el.Col != emb || el.Sum != nil || el.Status != StatusRunning {
		t.Fatalf("inspecting embedding: %+v", el)
	}
	p.do(ElementStatsCancel{})
	if el.Status != StatusCancelled || el.Job != 0 || p.m.jobs.Running() != 0 {
		t.Fatalf("cancelled: %+v, %d jobs", el, p.m.jobs.Running())
	}
	deliverAll() // the stopped scan's reports: dropped
	if el.Status != StatusCancelled || el.Sum != nil {
		t.Fatalf("a stopped scan's report was shown: %+v", el)
	}
	p.do(ElementStats{})
	deliverAll()
	if el.Status != StatusDone || !reflect.DeepEqual(figuresOf(*el.Sum.Elements), want["js_big.arrow/embedding"]) {
		t.Fatalf("embedding's statistics again: %+v", el)
	}
	p.do(Address{A: viewstate.CloseInspector{}})
	if el.Open || el.Sum != nil {
		t.Errorf("closed inspector: %+v", el)
	}

}

// TestAutoElements: the statistics start by themselves on files of at
// most AutoElementRows rows, known exactly, and AutoElementBytes bytes.
func TestAutoElements(t *testing.T) {
	for _, c := range []struct {
		rows  int64
		exact bool
		size  int64
		want  bool
	}{
		{64, true, 1 << 20, true},
		{AutoElementRows, true, AutoElementBytes, true},
		{AutoElementRows + 1, true, 1 << 20, false},
		{64, false, 1 << 20, false}, // an estimate, before the index
		{64, true, AutoElementBytes + 1, false},
	} {
		if got := autoElements(c.rows, c.exact, c.size); got != c.want {
			t.Errorf("autoElements(%d, %v, %d) = %v, want %v", c.rows, c.exact, c.size, got, c.want)
		}
	}
}

// BenchmarkElementStats: the inspector's column statistics of js_big.arrow's
// image column (64 rows), read row by row through File.Tensor and by the
// paced scan of record batches (two passes each).
func BenchmarkElementStats(b *testing.B) {
	data, err := os.ReadFile("../../testdata/js_big.arrow")
	if err != nil {
		b.Fatal(err)
	}
	f, err := decode.Open("js_big.arrow", data)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	col := fieldIndex(f, "image")
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			rowByRow(f, col)
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			st, _ := query.NewStats(query.Operand{Column: "image"}, QueryColumns(f), query.StatsOptions{Elements: true, Bins: ElementBins})
			RunStats(context.Background(), f, st, func() {}, func(StatsEvent) {})
		}
	})
}

// FuzzElementStats runs the inspector's column statistics over any bytes
// that open, as the page does (the paced scan of record batches, both
// passes), and checks them against the same column read row by row
// through File.Tensor, when the scan could read every batch.
func FuzzElementStats(f *testing.F) {
	for _, p := range testkit.Seeds(f, 64<<10) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := decode.OpenReader("fuzz", bytes.NewReader(data), int64(len(data)), decode.Options{Budget: 1 << 20, SmallFile: -1})
		if err != nil {
			return
		}
		defer file.Close()
		if file.Index(context.Background(), nil) != nil {
			return
		}
		checked := 0
		for col, fld := range file.Fields() {
			if (fld.Tensor == nil && !fld.Images) || checked == 2 {
				continue
			}
			checked++
			st, err := query.NewStats(query.Operand{Column: fld.Name}, QueryColumns(file), query.StatsOptions{Elements: true, Bins: ElementBins})
			if err != nil {
				continue // a column the query cannot name (a duplicate name)
			}
			var done *StatsDone
			RunStats(context.Background(), file, st, func() {}, func(e StatsEvent) {
				if d, ok := e.(StatsDone); ok {
					done = &d
				}
			})
			if done == nil {
				t.Fatalf("column %q: the scan did not end", fld.Name)
			}
			if done.Err != nil || done.Unread.Rows > 0 || done.Unread.FirstError != "" {
				continue
			}
			c := *done.Sum.Elements
			if c.NullRows+c.BadRows > c.Rows || c.Finite > c.Count {
				t.Fatalf("column %q: counts %+v", fld.Name, c)
			}
			if got, want := figuresOf(c), figuresOf(rowByRow(file, col)); !reflect.DeepEqual(got, want) {
				t.Fatalf("column %q: the scan's\n %+v\nrow by row\n %+v", fld.Name, got, want)
			}
		}
	})
}
