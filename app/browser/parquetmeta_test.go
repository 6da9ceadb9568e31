//go:build !wasm

package browser

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// footerJSON is what web/parquet-worker.js sends for a file of two row
// groups and three leaf columns under two top-level fields (a struct t
// with two leaves, then id).
const footerJSON = `{"createdBy":"parquet-rs version 59.3.0","version":2,
 "keyValue":[["ARROW:schema","/////w=="],["note",""]],
 "rowGroups":[{"rows":100,"compressed":3000,"uncompressed":9000,"chunks":[1000,1500,500]},
              {"rows":50,"compressed":600,"uncompressed":1200,"chunks":[100,200,300]}],
 "columns":[{"path":["t","data","list","item"],"codecs":["ZSTD"]},
            {"path":["t","shape","list","item"],"codecs":["ZSTD","UNCOMPRESSED"]},
            {"path":["id"],"codecs":["SNAPPY"]}]}`

func TestWorkerMeta(t *testing.T) {
	m, err := parseWorkerMeta(footerJSON)
	if err != nil {
		t.Fatal(err)
	}
	got := m.decodeMeta([]byte{1, 2})
	want := decode.ParquetMeta{
		Schema: []byte{1, 2}, CreatedBy: "parquet-rs version 59.3.0", Version: 2,
		KeyValue: []decode.KV{{Key: "ARROW:schema", Value: "/////w=="}, {Key: "note", Value: ""}},
		RowGroups: []decode.ParquetRowGroup{
			{Rows: 100, CompressedBytes: 3000, UncompressedBytes: 9000, Chunks: []decode.ParquetChunk{{CompressedBytes: 1000}, {CompressedBytes: 1500}, {CompressedBytes: 500}}},
			{Rows: 50, CompressedBytes: 600, UncompressedBytes: 1200, Chunks: []decode.ParquetChunk{{CompressedBytes: 100}, {CompressedBytes: 200}, {CompressedBytes: 300}}},
		},
		Columns: []decode.ParquetColumn{
			{Path: []string{"t", "data", "list", "item"}, Codecs: []string{"ZSTD"}},
			{Path: []string{"t", "shape", "list", "item"}, Codecs: []string{"ZSTD", "UNCOMPRESSED"}},
			{Path: []string{"id"}, Codecs: []string{"SNAPPY"}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decodeMeta:\n got %+v\nwant %+v", got, want)
	}
	if got := m.fields(); !reflect.DeepEqual(got, []string{"t", "id"}) {
		t.Errorf("fields: %q", got)
	}
	for _, c := range []struct {
		cols []int
		want []string
		err  string
	}{
		{nil, nil, ""},
		{[]int{1}, []string{"id"}, ""},
		{[]int{0, 1}, []string{"t", "id"}, ""},
		{[]int{2}, nil, "no column 2: the file has 2"},
	} {
		got, err := m.columnNames(c.cols)
		if !reflect.DeepEqual(got, c.want) || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("columnNames(%v) = %q, %v; want %q, %q", c.cols, got, err, c.want, c.err)
		}
	}
}

func TestWorkerMetaRefused(t *testing.T) {
	for _, c := range []struct{ json, err string }{
		{`{"rowGroups":[{"rows":1,"chunks":[1]}],"columns":[]}`, "row group 0 has 1 column chunks for 0 leaf columns"},
		{`{"rowGroups":[{"rows":-1,"chunks":[]}],"columns":[]}`, "row group 0 declares a negative size"},
		{`{"columns":[{"path":[]}]}`, "leaf column 0 has an empty path"},
		{`<b>`, "the Parquet reader sent a footer that is not JSON"},
	} {
		if _, err := parseWorkerMeta(c.json); err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.json, err, c.err)
		}
	}
	m, _ := parseWorkerMeta(`{"columns":[{"path":["a"]},{"path":["b"]},{"path":["a"]}]}`)
	if _, err := m.columnNames([]int{0}); err == nil || err.Error() != `the file has two top-level columns named "a": they cannot be read one at a time` {
		t.Errorf("repeated names: %v", err)
	}
}

// TestReadGuard: a read is refused when the column chunks it fetches
// (compressed) or the rows it decodes (the chunks' share of the row group's
// uncompressed size, times the share of its rows) exceed the budget.
func TestReadGuard(t *testing.T) {
	m, _ := parseWorkerMeta(footerJSON)
	for _, c := range []struct {
		rg            int
		offset, limit int64
		names         []string
		budget        int64
		err           string
	}{
		// Row group 0, all columns: 3000 bytes compressed, 9000 decoded.
		{0, 0, 100, nil, 9000, ""},
		{0, 0, 100, nil, 2999, "its column chunks to read hold 2.9 KiB (compressed), more than the cache budget (2.9 KiB) allows; ?cache=<MiB> in the address raises it"},
		{0, 0, 100, nil, 8999, "100 rows of it decode to about 8.8 KiB, more than the cache budget (8.8 KiB) allows; ?cache=<MiB> in the address raises it"},
		// Half the rows: 4500 decoded.
		{0, 50, 50, nil, 4500, ""},
		{0, 50, 1000, nil, 4500, ""}, // limit past the end counts the rows there are
		// id alone: 500 of 3000 compressed, so 1500 decoded for all rows.
		{0, 0, 100, []string{"id"}, 1500, ""},
		{0, 0, 100, []string{"id"}, 1499, "100 rows of it decode to about 1.5 KiB"},
		// t alone: 2500 compressed.
		{0, 0, 1, []string{"t"}, 2499, "its column chunks to read hold 2.4 KiB"},
		{2, 0, 1, nil, 1 << 20, "no row group 2: the file has 2"},
		{1, 51, 1, nil, 1 << 20, "rows 51 to 52 are outside row group 1's 50 rows"},
	} {
		err := m.readGuard(c.rg, c.offset, c.limit, c.names, c.budget)
		if (err == nil) != (c.err == "") || (err != nil && !strings.HasPrefix(err.Error(), c.err)) {
			t.Errorf("readGuard(%d, %d, %d, %q, %d) = %v, want %q", c.rg, c.offset, c.limit, c.names, c.budget, err, c.err)
		}
	}
}

func TestParquetMemLimit(t *testing.T) {
	for budget, want := range map[int64]int64{64 << 20: 512 << 20, 256 << 20: 512 << 20, 1 << 30: 2 << 30, 4 << 30: 3 << 30} {
		if got := parquetMemLimit(budget); got != want {
			t.Errorf("parquetMemLimit(%d) = %d, want %d", budget, got, want)
		}
	}
}

// TestWorkerStats: the statistics the worker sends become decode's, each
// kind parsed, the units of dates and timestamps kept for decode to
// convert; a value that does not parse as its kind, or a missing bound,
// leaves Min and Max out; a row group whose statistics do not match its
// chunks is an error.
func TestWorkerStats(t *testing.T) {
	const js = `{"rowGroups":[{"rows":10,"compressed":1,"uncompressed":1,"chunks":[1,1,1,1,1,1,1,1],
	 "stats":[{"kind":"int","min":"-5","max":"9007199254740993","nulls":"2","unit":""},
	          {"kind":"uint","min":"0","max":"18446744073709551615","nulls":"0","unit":""},
	          {"kind":"float","min":"-Infinity","max":"0.5","nulls":null,"unit":""},
	          {"kind":"string","min":"cat","max":"dog","nulls":"0","unit":""},
	          {"kind":"bool","min":"false","max":"true","nulls":"0","unit":""},
	          {"kind":"int","min":"19000","max":"19010","nulls":"0","unit":"d"},
	          {"kind":"int","min":"1.5","max":"2","nulls":"0","unit":"ms"},
	          null]}],
	 "columns":[{"path":["a"]},{"path":["b"]},{"path":["c"]},{"path":["d"]},{"path":["e"]},{"path":["f"]},{"path":["g"]},{"path":["h"]}]}`
	m, err := parseWorkerMeta(js)
	if err != nil {
		t.Fatal(err)
	}
	got := m.decodeMeta(nil).RowGroups[0].Chunks
	want := []*decode.ColumnStats{
		{NullCount: 2, Min: int64(-5), Max: int64(9007199254740993)},
		{NullCount: 0, Min: uint64(0), Max: uint64(18446744073709551615)},
		{NullCount: -1, Min: math.Inf(-1), Max: 0.5},
		{NullCount: 0, Min: "cat", Max: "dog"},
		{NullCount: 0, Min: false, Max: true},
		{NullCount: 0, Min: int64(19000), Max: int64(19010), Unit: "d"},
		{NullCount: 0},
		nil,
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k].Stats, w) {
			t.Errorf("chunk %d: stats %+v, want %+v", k, got[k].Stats, w)
		}
	}
	bad := strings.Replace(js, `,
	          null]}]`, `]}]`, 1)
	if _, err := parseWorkerMeta(bad); err == nil || !strings.Contains(err.Error(), "statistics for 7 column chunks of 8") {
		t.Errorf("statistics for too few chunks: %v", err)
	}
}
