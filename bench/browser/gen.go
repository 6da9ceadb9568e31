package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// Geometry of the generated tensors: one 224x224 RGB uint8 image per row.
const (
	imgH, imgW, imgC = 224, 224, 3
	tensorBytes      = imgH * imgW * imgC // 150528
	// rowBytes estimates a row's share of the file: the tensor, the int64
	// id, the float32 score and a short label with its int32 offset.
	rowBytes  = tensorBytes + 8 + 4 + 4 + 10
	batchRows = 256
	// genVersion changes when the generator writes different bytes, so that
	// files from an older harness are written again.
	genVersion = 1
)

// Layouts of the record batches.
const (
	layoutB256   = "b256"   // record batches of 256 rows
	layoutSingle = "single" // the whole file in one record batch
	// layoutSingle32 is one record batch of at most the rows whose tensor
	// values fit an int32 length (14266 rows, 2.15 GB): what a reader
	// limited to 32-bit array lengths can take.
	layoutSingle32 = "single32"
	// layoutJPEG4K is record batches of jpegBatchRows rows whose image
	// column is binary: each a 3840×2160 JPEG (quality 85), one of
	// jpegDistinct pictures in turn. It measures image thumbnails decoded
	// from bytes while scrolling.
	layoutJPEG4K = "jpeg4k"
)

// The JPEG layout's geometry.
const (
	jpegW, jpegH   = 3840, 2160
	jpegDistinct   = 8
	jpegBatchRows  = 16
	jpegRowBytesEs = 1_400_000 // about what one picture takes; plan's estimate of rows
)

// maxRows32 is the largest number of rows whose tensor child array length
// (rows*150528) fits in an int32.
const maxRows32 = math.MaxInt32 / tensorBytes

// benchFile is a generated Arrow IPC file.
type benchFile struct {
	Path    string `json:"path"`
	Size    string `json:"size"`   // as asked, e.g. "100M"
	Layout  string `json:"layout"` // b256, single, single32
	Rows    int    `json:"rows"`
	Batches int    `json:"batches"`
	Bytes   int64  `json:"bytes"`
	// ChildLen is the length of the tensors' value array in the biggest
	// record batch; above 2^31-1 readers limited to int32 lengths refuse it.
	ChildLen int64  `json:"child_len"`
	Version  int    `json:"version"`
	Note     string `json:"note,omitempty"`
}

// parseSize reads sizes like "100M", "1G", "6G", "512K" or a byte count
// (binary units: M is 2^20).
func parseSize(s string) (int64, error) {
	f, ok := scaled(s, 1<<10)
	if !ok || f <= 0 {
		return 0, fmt.Errorf("bad size %q: want e.g. 100M, 1G, 6G", s)
	}
	return int64(f), nil
}

// scaled reads a number with an optional suffix K, M or G, which
// multiplies it by unit, unit² or unit³.
func scaled(s string, unit float64) (float64, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	mult := 1.0
	for _, suffix := range []string{"K", "M", "G"} {
		mult *= unit
		if strings.HasSuffix(s, suffix) {
			f, err := strconv.ParseFloat(s[:len(s)-1], 64)
			return f * mult, err == nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// plan returns the file to write for a size and layout (not yet written).
func plan(dir, size, layout string) (benchFile, error) {
	n, err := parseSize(size)
	if err != nil {
		return benchFile{}, err
	}
	rows := int(max(1, n/rowBytes))
	f := benchFile{Size: size, Layout: layout, Rows: rows, Version: genVersion}
	switch layout {
	case layoutB256:
		f.Batches = (rows + batchRows - 1) / batchRows
		f.ChildLen = int64(min(rows, batchRows)) * tensorBytes
	case layoutSingle:
		f.Batches = 1
		f.ChildLen = int64(rows) * tensorBytes
		if f.ChildLen > math.MaxInt32 {
			f.Note = fmt.Sprintf("one batch of %d rows: tensor values %d > 2^31-1 (arrow-go writes 64-bit lengths; int32-limited readers refuse it)", rows, f.ChildLen)
		}
	case layoutSingle32:
		if rows > maxRows32 {
			f.Note = fmt.Sprintf("largest single batch with int32 lengths: %d of %d rows", maxRows32, rows)
			rows = maxRows32
		}
		f.Rows, f.Batches, f.ChildLen = rows, 1, int64(rows)*tensorBytes
	case layoutJPEG4K:
		f.Rows = int(max(1, n/jpegRowBytesEs))
		f.Batches = (f.Rows + jpegBatchRows - 1) / jpegBatchRows
	case layoutParquet:
		// The rows of the Arrow files of that size; Batches counts row
		// groups, and the file's bytes depend on the compression.
		f.Batches = (rows + pqRowGroupRows - 1) / pqRowGroupRows
		f.ChildLen = int64(min(rows, pqRowGroupRows)) * tensorBytes
		f.Path = filepath.Join(dir, fmt.Sprintf("tensors-%s-%s.parquet", size, layout))
		return f, nil
	default:
		return benchFile{}, fmt.Errorf("unknown layout %q: want b256, single, single32, jpeg4k or parquet", layout)
	}
	f.Path = filepath.Join(dir, fmt.Sprintf("tensors-%s-%s.arrow", size, layout))
	return f, nil
}

// ensure writes the file unless a file written by the same generator with
// the same rows and layout is already there (its .json sidecar says so and
// the size matches).
func ensure(f benchFile, logf func(string, ...any)) (benchFile, error) {
	if old, ok := existing(f); ok {
		logf("reusing %s (%d rows, %.1f MB)", f.Path, old.Rows, float64(old.Bytes)/1e6)
		return old, nil
	}
	need := int64(f.Rows) * rowBytes
	if f.Batches == 1 && f.ChildLen > scratchMin {
		need *= 2 // the batch is built in a scratch file first
	}
	logf("writing %s: %d rows in %d record batches", f.Path, f.Rows, f.Batches)
	var err error
	if f.Bytes, err = writeVia(f.Path, need, func(tmp string) error { return write(tmp, f) }); err != nil {
		return f, err
	}
	return f, writeSidecar(f.Path, f)
}

// writeVia writes the file path through path+".tmp" with write, once the
// disk has need bytes and a GiB to spare, and returns its size.
func writeVia(path string, need int64, write func(tmp string) error) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	if free, ok := freeBytes(filepath.Dir(path)); ok && free < need+(1<<30) {
		return 0, fmt.Errorf("not enough disk for %s: %d MB free, %d MB needed", path, free>>20, need>>20)
	}
	tmp := path + ".tmp"
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return 0, err
	}
	info, err := os.Stat(tmp)
	if err != nil {
		return 0, err
	}
	return info.Size(), os.Rename(tmp, path)
}

// writeSidecar writes v as JSON beside the file path (path.json), which
// tells a later run what the file holds.
func writeSidecar(path string, v any) error {
	meta, _ := json.MarshalIndent(v, "", "  ")
	return os.WriteFile(path+".json", meta, 0o644)
}

func existing(f benchFile) (benchFile, bool) {
	data, err := os.ReadFile(f.Path + ".json")
	if err != nil {
		return f, false
	}
	var old benchFile
	if json.Unmarshal(data, &old) != nil || old.Version != f.Version || old.Rows != f.Rows || old.Batches != f.Batches || old.Layout != f.Layout {
		return f, false
	}
	info, err := os.Stat(f.Path)
	if err != nil || info.Size() != old.Bytes {
		return f, false
	}
	old.Path = f.Path
	return old, true
}

// schemaOf is the schema of the generated files: id, image (a 224x224x3
// uint8 fixed shape tensor with dim names H, W, C), score, label.
func schemaOf() (*arrow.Schema, *tensorext.FixedShapeTensorType, error) {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{imgH, imgW, imgC}, nil, []string{"H", "W", "C"})
	if err != nil {
		return nil, nil, err
	}
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: typ, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.BinaryTypes.String},
	}, nil), typ, nil
}

// fillImages writes the pixels of rows [first, first+n) into buf: a colour
// gradient that moves with the row, so that neighbouring previews differ.
func fillImages(buf []uint8, first, n int) {
	for r := range n {
		row := first + r
		img := buf[r*tensorBytes : (r+1)*tensorBytes]
		shift := uint8(row * 7)
		for y := range imgH {
			line := img[y*imgW*imgC : (y+1)*imgW*imgC]
			for x := range imgW {
				p := line[x*imgC : x*imgC+3 : x*imgC+3]
				p[0] = uint8(x) + shift
				p[1] = uint8(y) + shift/2
				p[2] = uint8(x^y) + uint8(row)
			}
		}
	}
}

// write streams the file batch by batch: memory holds one batch of 256 rows
// (38.5 MB of pixels). A single-batch layout needs the whole batch at once:
// its buffers above 64 MB live in memory-mapped scratch files, so the page
// cache, not the heap, holds them.
func write(path string, f benchFile) error {
	switch f.Layout {
	case layoutJPEG4K:
		return writeJPEG(path, f)
	case layoutParquet, layoutShardParquet:
		return writeParquet(path, f)
	}
	schema, typ, err := schemaOf()
	if err != nil {
		return err
	}
	perBatch := batchRows
	var mem memory.Allocator = memory.NewGoAllocator()
	if f.Batches == 1 {
		perBatch = f.Rows
		if f.ChildLen > scratchMin {
			mm := newMmapAllocator(filepath.Dir(path))
			defer mm.close()
			mem = mm
		}
	}
	chunk := make([]uint8, min(batchRows, f.Rows)*tensorBytes)
	return writeArrowBatches(path, schema, f.Rows, perBatch, func(first, n int) (arrow.RecordBatch, error) {
		return batch(mem, schema, typ, chunk, first, n)
	})
}

// writeArrowBatches writes the Arrow IPC file path of rows rows of schema
// in record batches of per rows, each built by next.
func writeArrowBatches(path string, schema *arrow.Schema, rows, per int, next func(first, n int) (arrow.RecordBatch, error)) error {
	return writeArrowFile(path, schema, func(w *ipc.FileWriter) error {
		for first := 0; first < rows; first += per {
			rec, err := next(first, min(per, rows-first))
			if err != nil {
				return err
			}
			err = w.Write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// writeArrowFile creates the Arrow IPC file path with schema, has batches
// write its record batches to w, and closes the writer and the file; it
// returns the first error.
func writeArrowFile(path string, schema *arrow.Schema, batches func(w *ipc.FileWriter) error) (err error) {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	w, err := ipc.NewFileWriter(out, ipc.WithSchema(schema))
	if err != nil {
		return err
	}
	if err := batches(w); err != nil {
		return err
	}
	return w.Close()
}

// batch builds the record batch of rows [first, first+n), filling the
// tensors 256 rows at a time through chunk.
func batch(mem memory.Allocator, schema *arrow.Schema, typ *tensorext.FixedShapeTensorType, chunk []uint8, first, n int) (arrow.RecordBatch, error) {
	ids := array.NewInt64Builder(mem)
	defer ids.Release()
	scores := array.NewFloat32Builder(mem)
	defer scores.Release()
	labels := array.NewStringBuilder(mem)
	defer labels.Release()
	images := tensorext.NewFixedShapeTensorBuilder(mem, typ)
	defer images.Release()
	ids.Reserve(n)
	scores.Reserve(n)
	labels.Reserve(n)
	images.Reserve(n)
	for i := first; i < first+n; i++ {
		ids.Append(int64(i))
		scores.Append(float32(i%1000) / 1000)
		labels.Append("row " + strconv.Itoa(i))
	}
	per := len(chunk) / tensorBytes
	for at := first; at < first+n; at += per {
		k := min(per, first+n-at)
		fillImages(chunk, at, k)
		if err := images.AppendTensors(chunk[:k*tensorBytes]); err != nil {
			return nil, err
		}
	}
	cols := []arrow.Array{ids.NewArray(), images.NewFixedShapeTensorArray(), scores.NewArray(), labels.NewArray()}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}
