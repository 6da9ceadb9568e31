package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tensorview/tensorview/internal/testkit"
)

// The File's promise: its methods are safe for concurrent use. These tests
// run under `go test -race` too.

// concurrentRows is how many rows of each file the workers read: every
// row of a small file, rows spread over a larger one.
const concurrentRows = 24

// sampleRows returns the rows read of a file of n rows.
func sampleRows(n int64) []int64 {
	var rows []int64
	for k := range min(n, concurrentRows) {
		rows = append(rows, k*n/min(n, concurrentRows))
	}
	if n > concurrentRows {
		rows = append(rows, n-1)
	}
	return rows
}

// reading is what a File shows, read by one goroutine: the reference the
// concurrent readings must equal.
type reading struct {
	openErr  string
	indexErr string
	rows     int64
	exact    bool
	batches  int
	sample   []int64    // the rows read (sampleRows)
	cells    [][]string // [k][column] describeValue of row sample[k]
	loadErr  []string   // Load(sample[k]) error text, "" for none
	fields   []FieldInfo
	warnings []string
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// readAlone opens data and reads it in one goroutine.
func readAlone(data []byte, opt Options) reading {
	f, err := OpenReader("shared", bytes.NewReader(data), int64(len(data)), opt)
	if err != nil {
		return reading{openErr: err.Error()}
	}
	defer f.Close()
	ref := reading{indexErr: errText(f.Index(context.Background(), nil))}
	ref.rows, ref.exact = f.Rows()
	ref.batches = f.NumBatches()
	ref.sample = sampleRows(ref.rows)
	for _, row := range ref.sample {
		ref.loadErr = append(ref.loadErr, errText(f.Load(row)))
		var cells []string
		for c := range f.Fields() {
			cells = append(cells, describeValue(f, row, c))
		}
		ref.cells = append(ref.cells, cells)
	}
	ref.fields, ref.warnings = f.Fields(), f.Warnings()
	return ref
}

// concurrentCase is a file and the options it is opened with.
type concurrentCase struct {
	name string
	data []byte
	opt  Options
}

// concurrentCases are the small files (at most 64 KiB, as the seeds of
// package summary's FuzzOpen) of the interop corpus and testdata, lazily
// opened under a 1 MiB budget, and files whose
// batches are evicted, estimated until indexed, or read by row windows.
func concurrentCases(t *testing.T) []concurrentCase {
	var cases []concurrentCase
	for _, p := range testkit.Seeds(t, 64<<10) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel("../..", p)
		cases = append(cases, concurrentCase{rel, data, Options{Budget: 1 << 20, SmallFile: -1}})
	}
	return append(cases,
		concurrentCase{"evicting file", multiBatch(t, false, 40, 10), Options{Budget: 4 << 10, SmallFile: -1}},
		concurrentCase{"evicting stream", multiBatch(t, true, 40, 10), Options{Budget: 4 << 10, SmallFile: -1}},
		concurrentCase{"row windows file", oneBigBatch(t, false, 3000), Options{Budget: 64 << 10}},
		concurrentCase{"row windows stream", oneBigBatch(t, true, 3000), Options{Budget: 64 << 10}},
	)
}

// TestConcurrentUseMatchesAlone uses each file from many goroutines at once
// (opening it again, indexing, loading overlapping rows, reading cells,
// tensors and batches, fields and warnings, adding warnings, closing) and
// checks that everything shows as it does read by one goroutine.
func TestConcurrentUseMatchesAlone(t *testing.T) {
	for _, tc := range concurrentCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			useConcurrently(t, tc.data, tc.opt)
		})
	}
}

// workers is how many goroutines use one File at once.
const workers = 8

func useConcurrently(t *testing.T, data []byte, opt Options) {
	ref := readAlone(data, opt)
	if ref.openErr != "" {
		for err := range runAll(workers, func(int) string {
			_, err := OpenReader("shared", bytes.NewReader(data), int64(len(data)), opt)
			return errText(err)
		}) {
			if err != ref.openErr {
				t.Errorf("concurrent open: %q, alone %q", err, ref.openErr)
			}
		}
		return
	}
	f, err := OpenReader("shared", bytes.NewReader(data), int64(len(data)), opt)
	if err != nil {
		t.Fatalf("open: %v, alone it opened", err)
	}
	// The cells of a file whose index stops at a broken batch depend on
	// the order headers are read in (rows past it are estimated): those
	// are read, not compared.
	compare := ref.indexErr == "" && ref.exact
	for problem := range runAll(workers, func(w int) string {
		f.AddWarning(fmt.Sprintf("worker %d", w))
		if w == 0 { // another File of the same bytes, opened meanwhile
			return sameAlone(data, opt, ref)
		}
		if err := errText(f.Index(context.Background(), nil)); compare && err != ref.indexErr {
			return fmt.Sprintf("worker %d: Index: %q, alone %q", w, err, ref.indexErr)
		}
		return readRows(f, w, ref, compare)
	}) {
		if problem != "" {
			t.Error(problem)
		}
	}
	if t.Failed() {
		return
	}
	checkAfter(t, f, ref, compare)
	closeWhileLoading(t, f, ref, compare)
}

// runAll runs work(0), …, work(n-1) in goroutines started together and
// yields what each returns.
func runAll(n int, work func(w int) string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		out := make(chan string, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for w := range n {
			wg.Go(func() {
				<-start
				out <- work(w)
			})
		}
		close(start)
		wg.Wait()
		close(out)
		for s := range out {
			if !yield(s) {
				return
			}
		}
	}
}

// sameAlone opens data again and checks it shows as ref, "" when it does.
func sameAlone(data []byte, opt Options, ref reading) string {
	got := readAlone(data, opt)
	switch {
	case got.openErr != ref.openErr || got.indexErr != ref.indexErr:
		return fmt.Sprintf("a second File: open %q index %q, alone %q %q", got.openErr, got.indexErr, ref.openErr, ref.indexErr)
	case got.rows != ref.rows || got.exact != ref.exact || got.batches != ref.batches:
		return fmt.Sprintf("a second File: %d rows (exact %v) in %d batches, alone %d (%v) in %d", got.rows, got.exact, got.batches, ref.rows, ref.exact, ref.batches)
	case ref.indexErr == "" && !slices.EqualFunc(got.cells, ref.cells, slices.Equal):
		return "a second File shows other cells"
	}
	return ""
}

// readRows has worker w read the sample rows in an order of its own
// (forward, backward, from the middle), each row through another entry
// point, and checks what it reads against ref when compare is set.
func readRows(f *File, w int, ref reading, compare bool) string {
	n := len(ref.sample)
	for i := range n {
		k := i
		switch w % 3 {
		case 1:
			k = n - 1 - i
		case 2:
			k = (i + n/2) % n
		}
		row := ref.sample[k]
		f.Rows()
		f.Warnings()
		f.Reading()
		f.CacheBytes()
		f.Window(row)
		f.WindowBytes(row)
		f.WindowState(row)
		fields := f.Fields()
		switch (k + w) % 4 {
		case 0:
			if err := errText(f.Load(row)); compare && err != ref.loadErr[k] {
				return fmt.Sprintf("worker %d row %d: Load %q, alone %q", w, row, err, ref.loadErr[k])
			}
		case 1:
			if err := errText(f.LoadContext(context.Background(), row)); compare && err != ref.loadErr[k] {
				return fmt.Sprintf("worker %d row %d: LoadContext %q, alone %q", w, row, err, ref.loadErr[k])
			}
		case 2:
			if b, _, ok := f.Locate(row); ok {
				_, _ = f.Batch(b)
			}
		}
		for c, fld := range fields {
			got := describeValue(f, row, c)
			if compare && got != ref.cells[k][c] {
				return fmt.Sprintf("worker %d row %d column %d: %s, alone %s", w, row, c, got, ref.cells[k][c])
			}
			if fld.Tensor == nil {
				continue
			}
			tn, err := f.Tensor(row, c)
			if got := describeTensor(tn, err); compare && err == nil && !strings.HasSuffix(ref.cells[k][c], " "+got) {
				return fmt.Sprintf("worker %d row %d column %d: Tensor %s, its value %s", w, row, c, got, ref.cells[k][c])
			}
		}
	}
	return ""
}

// checkAfter checks the File once the workers are done: its rows, its
// warnings (the file's own, once, and one of each worker) and its fields.
func checkAfter(t *testing.T, f *File, ref reading, compare bool) {
	t.Helper()
	if rows, exact := f.Rows(); compare && (rows != ref.rows || exact != ref.exact || f.NumBatches() != ref.batches) {
		t.Errorf("%d rows (exact %v) in %d batches, alone %d (%v) in %d", rows, exact, f.NumBatches(), ref.rows, ref.exact, ref.batches)
	}
	want := slices.Clone(ref.warnings)
	for w := range workers {
		want = append(want, fmt.Sprintf("worker %d", w))
	}
	got := f.Warnings()
	slices.Sort(want)
	slices.Sort(got)
	if compare && !slices.Equal(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	// Which batch shows a broken column first depends on the order the
	// workers read them: the field says so either way.
	for k, fld := range f.Fields() {
		alone := ref.fields[k]
		if compare && (fld.Err == "") != (alone.Err == "") {
			t.Errorf("field %d: error %q, alone %q", k, fld.Err, alone.Err)
		}
		fld.Err, alone.Err = "", ""
		if !reflect.DeepEqual(fld, alone) {
			t.Errorf("field %d: %+v (%+v), alone %+v (%+v)", k, fld, fld.Tensor, alone, alone.Tensor)
		}
	}
}

// closeWhileLoading loads every row from the workers while one of them
// closes the file: each load ends as it does alone or with the error of a
// closed file, and the closed file's cache holds nothing.
func closeWhileLoading(t *testing.T, f *File, ref reading, compare bool) {
	t.Helper()
	for problem := range runAll(workers, func(w int) string {
		if w == 0 {
			f.Close()
			return ""
		}
		n := len(ref.sample)
		for i := range n {
			k := (i + w) % n
			row := ref.sample[k]
			err := f.LoadContext(context.Background(), row)
			if compare && err != nil && errText(err) != ref.loadErr[k] && !errors.Is(err, errClosed) {
				return fmt.Sprintf("worker %d row %d while closing: %v", w, row, err)
			}
		}
		return ""
	}) {
		if problem != "" {
			t.Error(problem)
		}
	}
	if used, _ := f.CacheBytes(); used != 0 {
		t.Errorf("the closed file's cache holds %d bytes", used)
	}
}
