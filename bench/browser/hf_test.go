package main

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/tensorview/tensorview/tensorext"
)

// TestHFFiles writes the hf layout's three files of 250 rows and reads
// them back with arrow-go: the Arrow file's batches of 100 rows, the
// Parquet files' row groups of 100, snappy, the page index in one and in
// neither the other (dropPageIndex), the features and ARROW:schema in the
// footer, and every value of every row against the generator's.
func TestHFFiles(t *testing.T) {
	defer func(old string) { nodeModules = old }(nodeModules)
	nodeModules = filepath.Join("..", "..", "testdata", "node_modules")
	if _, err := os.Stat(filepath.Join(nodeModules, "parquet-wasm")); err != nil {
		if os.Getenv("TENSORVIEW_FULL") != "" {
			t.Fatal(err)
		}
		t.Skip("needs testdata/node_modules (cd testdata && npm ci)")
	}
	const rows = 250
	dir := t.TempDir()
	files, err := hfFiles(dir, rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d files", len(files))
	}
	var view int64
	for r := range hfViewRows {
		pic, _ := hfJPEG(r)
		view += int64(len(pic)+len("train/"+strconv.Itoa(r)+".jpg")+len(hfCaption(r))) + 8 + 1024
	}
	for _, f := range files {
		if f.ViewBytes != view {
			t.Errorf("%s: view bytes %d, want %d", f.Layout, f.ViewBytes, view)
		}
	}
	checkHFArrow(t, files[0].Path, rows)
	checkHFParquet(t, files[1].Path, rows, false)
	checkHFParquet(t, files[2].Path, rows, true)
	again, err := hfFiles(dir, rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range again {
		if f.Bytes != files[i].Bytes {
			t.Errorf("%s: written again", f.Path)
		}
	}
}

// checkHFTable checks every row of tbl's columns image, label, caption,
// emb (in that order), the first row being first.
func checkHFTable(t *testing.T, where string, cols []arrow.Array, first int) {
	t.Helper()
	img := cols[0].(*array.Struct)
	pics, paths := img.Field(0).(*array.Binary), img.Field(1).(*array.String)
	labels, caps := cols[1].(*array.Int64), cols[2].(*array.String)
	emb, ok := cols[3].(*tensorext.FixedShapeTensorArray)
	if !ok {
		t.Fatalf("%s: emb is %s", where, cols[3].DataType())
	}
	if s := emb.TensorType().Shape(); !slices.Equal(s, []int{16, 16}) {
		t.Errorf("%s: emb shape %v", where, s)
	}
	for i := range img.Len() {
		r := first + i
		want, _ := hfJPEG(r)
		if !bytes.Equal(pics.Value(i), want) {
			t.Errorf("%s row %d: the JPEG differs", where, r)
		}
		if paths.Value(i) != "train/"+strconv.Itoa(r)+".jpg" || labels.Value(i) != int64(r%10) || caps.Value(i) != hfCaption(r) {
			t.Errorf("%s row %d: %q %d %q", where, r, paths.Value(i), labels.Value(i), caps.Value(i))
		}
		tn, err := emb.Tensor(i)
		if err != nil {
			t.Fatal(err)
		}
		if got := tn.Values.(*array.Float32).Float32Values()[tn.Offset : tn.Offset+256]; !slices.Equal(got, hfEmb(r)) {
			t.Errorf("%s row %d: emb differs", where, r)
		}
	}
}

func checkHFArrow(t *testing.T, path string, rows int) {
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, err := ipc.NewFileReader(in)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if v, _ := r.Schema().Metadata().GetValue("huggingface"); v != hfFeatures() {
		t.Errorf("arrow: huggingface metadata %q", v)
	}
	first := 0
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(100, rows-first); int(rec.NumRows()) != want {
			t.Errorf("arrow batch %d: %d rows, want %d", i, rec.NumRows(), want)
		}
		checkHFTable(t, "arrow", rec.Columns(), first)
		first += int(rec.NumRows())
	}
	if first != rows {
		t.Errorf("arrow: %d rows, want %d", first, rows)
	}
	pic, _ := hfJPEG(7)
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(pic)); err != nil || cfg.Width != hfSide || cfg.Height != hfSide {
		t.Errorf("row 7's JPEG: %+v, %v", cfg, err)
	}
	if len(pic) < 40_000 || len(pic) > 150_000 {
		t.Errorf("row 7's JPEG: %d bytes, want 40 to 150 KB", len(pic))
	}
}

func checkHFParquet(t *testing.T, path string, rows int, pageIndex bool) {
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pf, err := file.NewParquetReader(in)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	md := pf.MetaData()
	for _, k := range []string{"huggingface", "ARROW:schema"} {
		if md.KeyValueMetadata().FindValue(k) == nil {
			t.Errorf("%s: no %s in the footer", path, k)
		}
	}
	if v := md.KeyValueMetadata().FindValue("huggingface"); v != nil && *v != hfFeatures() {
		t.Errorf("%s: huggingface %q", path, *v)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	for g := range pf.NumRowGroups() {
		rg := pf.RowGroup(g).MetaData()
		if want := min(100, rows-first); rg.NumRows() != int64(want) {
			t.Errorf("%s row group %d: %d rows, want %d", path, g, rg.NumRows(), want)
		}
		for k := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(k)
			if err != nil {
				t.Fatal(err)
			}
			has := cc.GetOffsetIndexLocation() != nil || cc.GetColumnIndexLocation() != nil
			if cc.Compression() != compress.Codecs.Snappy || has != pageIndex {
				t.Errorf("%s row group %d %s: %s, page index %v, want %v", path, g, cc.PathInSchema(), cc.Compression(), has, pageIndex)
			}
		}
		tbl, err := fr.ReadRowGroups(context.Background(), []int{0, 1, 2, 3, 4}, []int{g}) // leaves: image.bytes, image.path, label, caption, emb
		if err != nil {
			t.Fatal(err)
		}
		var cols []arrow.Array
		for c := range 4 {
			if n := len(tbl.Column(c).Data().Chunks()); n != 1 {
				t.Fatalf("%s row group %d column %d: %d chunks", path, g, c, n)
			}
			cols = append(cols, tbl.Column(c).Data().Chunk(0))
		}
		checkHFTable(t, filepath.Base(path), cols, first)
		first += int(tbl.NumRows())
		tbl.Release()
	}
	if first != rows {
		t.Errorf("%s: %d rows, want %d", path, first, rows)
	}
}

// TestHFTable prints runs of two readers on a file by URL (cold and warm)
// and dropped, a failed run and a baseline, and checks the rows: medians,
// ranges, the ratio to hyparquet's on the same file, source and visit, the
// data read against the rows in view.
func TestHFTable(t *testing.T) {
	f := &hfFile{benchFile: benchFile{Path: "/b/hf-3000.parquet", Layout: layoutHFParquet, Rows: 3000, Batches: 30, Bytes: 227e6},
		Format: "parquet", ViewBytes: 5e5}
	sent := func(data, engine, shell int64) map[string]hfBytes {
		return map[string]hfBytes{kindData: {data, 4}, kindEngine: {engine, 10}, kindShell: {shell, 3}}
	}
	rows := []*hfRow{
		{file: f, source: sourceURL, visit: visitCold, viewer: viewerHyparquet, runs: []*hfResult{
			{Ms: 500, Sent: sent(8e6, 6e4, 1e4)}, {Ms: 400, Sent: sent(8e6, 6e4, 1e4)}, {Ms: 600, Sent: sent(8e6, 6e4, 1e4)}}},
		{file: f, source: sourceURL, visit: visitCold, viewer: viewerTensorview, runs: []*hfResult{
			{Ms: 1000, Sent: sent(2e6, 1.7e6, 4.4e6)}, {Status: "timeout"}, {Ms: 1200, Sent: sent(2e6, 1.7e6, 4.4e6)}}},
		{file: f, source: sourceURL, visit: visitWarm, viewer: viewerHyparquet, runs: []*hfResult{
			{Ms: 300, Sent: sent(8e6, 0, 2e3)}, {Ms: 250, Sent: sent(8e6, 0, 2e3)}, {Ms: 350, Sent: sent(8e6, 0, 2e3)}}},
		{file: f, source: sourceURL, visit: visitWarm, viewer: viewerTensorview, runs: []*hfResult{
			{Ms: 600, Sent: sent(2e6, 1.7e6, 2e4)}, {Ms: 750, Sent: sent(2e6, 1.7e6, 2e4)}, {Ms: 450, Sent: sent(2e6, 1.7e6, 2e4)}}},
		{file: f, source: sourceFile, visit: visitCold, viewer: viewerHyparquet, runs: []*hfResult{{Ms: 100, Sent: sent(0, 0, 0)}}},
		{file: f, source: sourceFile, visit: visitCold, viewer: viewerTensorview, build: "baseline", runs: []*hfResult{{Check: "1 rows read, want 8"}}},
	}
	var b strings.Builder
	printHFTable(&b, config{repeat: 3, visits: []string{visitCold, visitWarm}}, []*hfFile{f}, rows)
	for _, want := range []string{
		"- HF-like, Parquet (no page index): /b/hf-3000.parquet, 227.0 MB, 3000 rows in 30 row groups; the first 8 rows hold 0.50 MB",
		"the bytes are the timed visit's",
		"| file | opened | visit | reader | first row's image drawn ms | × hyparquet |",
		"| HF-like, Parquet (no page index) | by URL | cold | hyparquet 1.33.0 | 500 (400–600) | – | 8.00 (4) | 16.0× | 0.06 (10) | 0.01 (3) |",
		"| HF-like, Parquet (no page index) | by URL | cold | tensorview | 1000 (1000–1200) | 2.00× (2.00–2.40) | 2.00 (4) | 4.0× | 1.70 (10) | 4.40 (3) |",
		"| HF-like, Parquet (no page index) | by URL | warm | hyparquet 1.33.0 | 300 (250–350) | – | 8.00 (4) | 16.0× | 0.00 (10) | 0.00 (3) |",
		"| HF-like, Parquet (no page index) | by URL | warm | tensorview | 600 (450–750) | 2.00× (1.50–2.50) | 2.00 (4) | 4.0× | 1.70 (10) | 0.02 (3) |",
		"| HF-like, Parquet (no page index) | dropped | cold | hyparquet 1.33.0 | 100 | – | – (a File) | – | 0.00 (10) | 0.00 (3) |",
		"| HF-like, Parquet (no page index) | dropped | cold | tensorview (baseline) | error [1] |",
		"[1] HF-like, Parquet (no page index), dropped, cold, tensorview (baseline): 1 rows read, want 8",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	b.Reset()
	printHFTable(&b, config{repeat: 3, visits: []string{visitCold}}, []*hfFile{f}, rows[:2])
	if strings.Contains(b.String(), "warm") {
		t.Errorf("cold visits alone, yet the table speaks of warm ones:\n%s", b.String())
	}
}

// TestHFJSON: every row's visit is in the JSON, and the visits measured.
func TestHFJSON(t *testing.T) {
	f := &hfFile{benchFile: benchFile{Path: "/b/hf-3000.parquet", Layout: layoutHFParquet}, Format: "parquet"}
	rows := []*hfRow{
		{file: f, source: sourceURL, visit: visitCold, viewer: viewerHyparquet, runs: []*hfResult{{Ms: 500}}},
		{file: f, source: sourceURL, visit: visitWarm, viewer: viewerTensorview, build: "baseline", runs: []*hfResult{{Ms: 300}}},
	}
	path := filepath.Join(t.TempDir(), "hf.json")
	if err := writeHFJSON(path, config{visits: []string{visitCold, visitWarm}}, []*hfFile{f}, rows); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Visits []string
		Rows   []struct{ Source, Visit, Reader string }
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := []struct{ Source, Visit, Reader string }{{"url", "cold", "hyparquet 1.33.0"}, {"url", "warm", "tensorview (baseline)"}}
	if !slices.Equal(got.Visits, []string{"cold", "warm"}) || !slices.Equal(got.Rows, want) {
		t.Errorf("visits %v, rows %+v; want [cold warm], %+v", got.Visits, got.Rows, want)
	}
}

// TestParseVisits: BENCH_VISITS is cold and/or warm, each once, and a
// dropped file is measured cold only.
func TestParseVisits(t *testing.T) {
	for in, want := range map[string][]string{
		"cold":          {"cold"},
		"warm":          {"warm"},
		" cold , warm ": {"cold", "warm"},
		"warm,cold":     {"warm", "cold"},
	} {
		if got, err := parseVisits(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"":          `no visit in ""`,
		",":         `no visit in ","`,
		"hot":       `"hot" is neither cold nor warm`,
		"cold,Warm": `"Warm" is neither cold nor warm`,
		"warm,warm": `warm twice in "warm,warm"`,
	} {
		if _, err := parseVisits(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %s", in, err, want)
		}
	}
	if got := hfVisits(sourceURL, []string{visitCold, visitWarm}); !slices.Equal(got, []string{visitCold, visitWarm}) {
		t.Errorf("by URL: %v", got)
	}
	if got := hfVisits(sourceFile, []string{visitWarm}); !slices.Equal(got, []string{visitCold}) {
		t.Errorf("dropped: %v, want [cold]", got)
	}
}

// TestDropPageIndexErrors: a file that is not Parquet is refused, and left
// as it was.
func TestDropPageIndexErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.parquet")
	for _, data := range []string{"", "PAR1", "PAR1 nothing PAR2", "PAR1\xff\xff\xff\xffPAR1"} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := dropPageIndex(path); err == nil {
			t.Errorf("%q: no error", data)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("%q: rewritten as %q", data, got)
		}
	}
}

// TestHFClassify: what the hf server counts as data, engine and app.
func TestHFClassify(t *testing.T) {
	s := &hfServer{}
	for path, want := range map[string]string{
		"/bench/files/hf-3000.parquet":                      kindData,
		"/bench/npm/hyparquet/src/read.js":                  kindEngine,
		"/tensorview/web/parquet-worker.js":                 kindEngine,
		"/tensorview/web/parquet/parquet_wasm_bg.wasm":      kindEngine,
		"/tensorview/web/parquet/hyparquet/metadata.js":     kindEngine,
		"/tensorview/web/app.wasm":                          kindShell,
		"/tensorview/":                                      kindShell,
		"/tensorview/app-worker.js":                         kindShell,
		"/bench/hyparquet.html":                             kindShell,
		"/bench/hyparquet-view.js":                          kindShell,
		"/tensorview/web/samples/js_parquet_like.arrow":     kindShell,
		"/tensorview/web/vendor/flechette.min.js":           kindShell,
		"/tensorview/web/hyparquet/hyparquet-engine.min.js": kindEngine,
		// The engine branch's bundle and its decompressors' chunks.
		"/tensorview/web/parquet/engine/parquet-engine.js": kindEngine,
		"/tensorview/web/parquet/engine/esm.js":            kindEngine,
		"/tensorview/web/parquet/engine/chunk.js":          kindEngine,
	} {
		if got := s.classify(path); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
}

func TestHfMarks(t *testing.T) {
	marks := [][2]any{
		{"tv:rows-render", 5.0}, // before the choice: not counted
		{"first data request", 20.0},
		{"tv:rows-render", 40.0},
		{"tv:rows-render", 60.0},
		{"engine downloaded", 30.0},
		{"engine downloaded", 50.0},
		{"engine downloaded", 45.0},
		{"tv:odd", "x"},
	}
	got := hfMarks(marks, 10)
	want := map[string]float64{"first data request": 10, "tv:rows-render": 30, "engine downloaded": 40}
	if !maps.Equal(got, want) {
		t.Errorf("hfMarks = %v, want %v", got, want)
	}
	if got := hfMarks(marks, 100); got != nil {
		t.Errorf("hfMarks after every mark = %v, want nil", got)
	}
}
