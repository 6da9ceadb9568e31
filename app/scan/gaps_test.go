//go:build linux

package scan

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/tensorext"
)

// A diagnostic, not a test of speed: the scans over the query
// benchmark's columns (bench/browser/querygen.go: id int64, score float32,
// label dictionary of 20 words, caption utf8 of about 40 bytes, ts
// timestamp, emb a [2, 2] float32 fixed_shape_tensor), each with a Pace
// that records the longest wall-clock gap between two calls and the phase
// it fell in (the batch being scanned, or the sort after the scan). In the
// browser Pace is where the page gets the thread back, so a gap is a task
// of the main thread; native Go is 3–5 times as fast as the wasm, so a gap
// over about 10 ms here is a long task there. On a busy machine wall
// time counts other processes' turns: the gaps are also measured in the
// CPU time of the scan's thread (the test locks it; run it with
// GOMAXPROCS=1 so that the garbage collector's work shares it, as in the
// wasm). It only logs:
//
//	TV_GAPS=10M go test -run '^TestGaps$' -v ./app/scan
//	TV_GAPS=10M TV_GAPS_FILE=/tmp/qbench/query-10M.arrow go test -run '^TestGaps$' -v ./app/scan
//
// With TV_GAPS_FILE the batches are read and decoded from that Arrow file
// by app/decode (its decode counts in the gaps); else they are generated
// in memory per read, and the generation does not count.
func TestGaps(t *testing.T) {
	spec := os.Getenv("TV_GAPS")
	if spec == "" {
		t.Skip("set TV_GAPS=<rows> (such as 10M) to run the diagnostic")
	}
	rows, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSuffix(spec, "M"), "K"))
	switch {
	case err != nil:
		t.Fatal(err)
	case strings.HasSuffix(spec, "M"):
		rows *= 1_000_000
	case strings.HasSuffix(spec, "K"):
		rows *= 1_000
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rec := &gapRecorder{}
	var src Source
	if path := os.Getenv("TV_GAPS_FILE"); path != "" {
		src = openGapsFile(t, path, rec)
	} else {
		src = newGenSource(t, rows, rec)
	}
	cols := query.ColumnsOf(src.Schema())
	ctx := context.Background()
	for _, k := range []string{"-score", "id", "label", "-caption", "ts", "-mean(emb)"} {
		s, err := query.BindSort(must(query.ParseSort(k)), cols)
		if err != nil {
			t.Fatal(err)
		}
		rec.start("sort " + k)
		_, _, err = Sort(ctx, src, s, rec.options())
		rec.report(t, err)
	}
	for _, q := range []string{"label = 'cat' and score > 0.9", "caption contains 'park'", "id >= 0", "mean(emb) > 40"} {
		rec.start("filter " + q)
		_, _, err := Filter(ctx, src, compile(t, src, q), rec.options())
		rec.report(t, err)
	}
	for _, x := range []string{"score", "label", "caption", "id", "mean(emb)"} {
		st, err := query.NewStats(must(query.ParseOperand(x)), cols, query.StatsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rec.start("stats " + x)
		_, _, err = Stats(ctx, src, st, rec.options())
		rec.report(t, err)
	}
}

// gapRecorder is a Pace that records the longest gap between two calls
// (less the time the source spent generating batches, which a real file
// does not) and where it was: the phase at the call that ended it (the
// batch the scan was in, or the sort's n-th pace after the scan).
type gapRecorder struct {
	what          string
	began         time.Time
	last          time.Time
	excluded      time.Duration // generation within the current gap
	phase         string
	calls         int
	maxGap        time.Duration
	maxTo         string
	gcs           uint32
	maxGCs        uint32 // GC cycles that ended within the longest gap
	maxRead       time.Duration
	maxReadPhase  string
	lastCPU       time.Duration
	maxCPU        time.Duration // the longest gap in the thread's CPU time
	maxCPUTo      string
	maxRows       int64 // the most rows scanned between two calls
	rowsAtLast    int64
	rows          int64
	scanned       bool
	scanDoneCalls int
}

func (r *gapRecorder) start(what string) {
	runtime.GC()
	*r = gapRecorder{what: what, began: time.Now(), last: time.Now(), phase: "start", gcs: numGC(), lastCPU: threadCPU()}
}

// threadCPU is the CPU time of the calling thread (RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func numGC() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

func (r *gapRecorder) options() Options {
	return Options{
		Pace: func() error {
			r.tick()
			return nil
		},
		Progress: func(p Progress) {
			r.rows = p.Rows
			r.phase = fmt.Sprintf("scan batch %d", p.Batch)
			if p.Rows == p.Total {
				r.phase = "after the scan"
				r.scanned = true
			}
		},
	}
}

func (r *gapRecorder) tick() {
	now := time.Now()
	gap := now.Sub(r.last) - r.excluded
	if cpu := threadCPU() - r.lastCPU - r.excluded; cpu > r.maxCPU {
		r.maxCPU, r.maxCPUTo = cpu, r.phase
	}
	r.calls++
	gcs := numGC()
	if gap > r.maxGap {
		r.maxGap, r.maxTo, r.maxGCs = gap, r.phase, gcs-r.gcs
	}
	if d := r.rows - r.rowsAtLast; d > r.maxRows {
		r.maxRows = d
	}
	r.rowsAtLast = r.rows
	if r.scanned {
		r.scanDoneCalls++
		r.phase = fmt.Sprintf("sort, pace %d", r.scanDoneCalls)
	}
	r.gcs = gcs
	r.excluded = 0
	// ReadMemStats stops the world: keep its cost out of the next gap.
	r.last, r.lastCPU = time.Now(), threadCPU()
}

func (r *gapRecorder) report(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", r.what, err)
		return
	}
	now := time.Now()
	tail := now.Sub(r.last) - r.excluded
	t.Logf("%-36s %7.0f ms, %5d paces; longest gap: CPU %6.1f ms (ending at %q), wall %6.1f ms (ending at %q, %d GC cycles ended in it); after the last pace %6.1f ms; most rows between paces %d; longest read %5.1f ms (%s)",
		r.what, ms(now.Sub(r.began)), r.calls, ms(r.maxCPU), r.maxCPUTo, ms(r.maxGap), r.maxTo, r.maxGCs, ms(tail), r.maxRows, ms(r.maxRead), r.maxReadPhase)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// genSource generates the query benchmark's record batches (the columns
// and values of bench/browser/querygen.go, which a package main cannot
// share), only the columns asked for, when they are read.
type genSource struct {
	schema *arrow.Schema
	typ    *tensorext.FixedShapeTensorType
	rows   int
	rec    *gapRecorder
}

const genBatchRows = 64 << 10

func newGenSource(t *testing.T, rows int, rec *gapRecorder) *genSource {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "caption", Type: arrow.BinaryTypes.String},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
		{Name: "emb", Type: typ},
	}, nil)
	return &genSource{schema: schema, typ: typ, rows: rows, rec: rec}
}

func (s *genSource) Schema() *arrow.Schema          { return s.schema }
func (s *genSource) NumBatches() int                { return (s.rows + genBatchRows - 1) / genBatchRows }
func (s *genSource) BatchRows(i int) (int64, error) { return s.batchRows(i), nil }
func (s *genSource) Rows() (int64, bool)            { return int64(s.rows), true }
func (s *genSource) batchRows(i int) int64 {
	return int64(min(genBatchRows, s.rows-i*genBatchRows))
}

var genLabels = []string{"cat", "dog", "bird", "fish", "horse", "sheep", "cow", "bear", "zebra", "giraffe",
	"car", "bus", "train", "boat", "plane", "bike", "chair", "table", "lamp", "clock"}

var genPlaces = []string{"park", "street", "kitchen", "field", "harbour", "garden", "station", "forest"}

func genScore(i int) float32 { return float32((uint32(i)*2654435761+12345)&(1<<24-1)) / (1 << 24) }
func genLabel(i int) int     { return int((uint64(i)*0x9E3779B97F4A7C15)>>40) % len(genLabels) }

func (s *genSource) ReadColumns(ctx context.Context, b int, cols []int) (arrow.RecordBatch, query.Tensors, error) {
	began := time.Now()
	defer func() {
		if s.rec != nil {
			s.rec.excluded += time.Since(began)
		}
	}()
	mem := memory.DefaultAllocator
	first, n := b*genBatchRows, int(s.batchRows(b))
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for k, c := range cols {
		fields[k] = s.schema.Field(c)
		switch c {
		case 0:
			bl := array.NewInt64Builder(mem)
			for i := first; i < first+n; i++ {
				bl.Append(int64(i))
			}
			arrs[k] = bl.NewArray()
		case 1:
			bl := array.NewFloat32Builder(mem)
			for i := first; i < first+n; i++ {
				bl.Append(genScore(i))
			}
			arrs[k] = bl.NewArray()
		case 2:
			idx := array.NewInt32Builder(mem)
			for i := first; i < first+n; i++ {
				idx.Append(int32(genLabel(i)))
			}
			words := array.NewStringBuilder(mem)
			words.AppendValues(genLabels, nil)
			arrs[k] = array.NewDictionaryArray(fields[k].Type, idx.NewArray(), words.NewArray())
		case 3:
			bl := array.NewStringBuilder(mem)
			for i := first; i < first+n; i++ {
				bl.Append("photo " + strconv.Itoa(i) + " of a " + genLabels[genLabel(i)] + " in the " + genPlaces[i%len(genPlaces)])
			}
			arrs[k] = bl.NewArray()
		case 4:
			bl := array.NewTimestampBuilder(mem, fields[k].Type.(*arrow.TimestampType))
			for i := first; i < first+n; i++ {
				bl.Append(arrow.Timestamp(1_700_000_000_000_000 + int64(i)*1_000_000))
			}
			arrs[k] = bl.NewArray()
		case 5:
			bl := tensorext.NewFixedShapeTensorBuilder(mem, s.typ)
			vals := make([]float32, 0, 4*n)
			for i := first; i < first+n; i++ {
				vals = append(vals, float32(i%97), float32(i%89)/4, genScore(i), float32(genLabel(i)))
			}
			if err := bl.AppendTensors(vals); err != nil {
				return nil, nil, err
			}
			arrs[k] = bl.NewFixedShapeTensorArray()
		}
	}
	rb := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rb, query.ArrayTensors{Batch: rb}, nil
}

// gapsFile reads the batches of an Arrow file through app/decode, as
// the viewer does (its read and decode count in the gaps).
type gapsFile struct {
	f   *decode.File
	rec *gapRecorder
}

func openGapsFile(t *testing.T, path string, rec *gapRecorder) *gapsFile {
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	info, err := in.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f, err := decode.OpenReader(path, in, info.Size(), decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return &gapsFile{f: f, rec: rec}
}

func (s *gapsFile) Schema() *arrow.Schema          { return s.f.Schema }
func (s *gapsFile) NumBatches() int                { return s.f.NumBatches() }
func (s *gapsFile) BatchRows(i int) (int64, error) { return s.f.BatchRowCount(i) }
func (s *gapsFile) Rows() (int64, bool)            { return s.f.Rows() }

func (s *gapsFile) ReadColumns(ctx context.Context, i int, cols []int) (arrow.RecordBatch, query.Tensors, error) {
	began := time.Now()
	rb, err := s.f.ReadColumns(ctx, i, cols)
	if d := time.Since(began); d > s.rec.maxRead {
		s.rec.maxRead, s.rec.maxReadPhase = d, fmt.Sprintf("batch %d", i)
	}
	if err != nil {
		return nil, nil, err
	}
	return rb, query.ArrayTensors{Batch: rb}, nil
}
