package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
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

// The hf layout (BENCH_LAYOUTS=hf): first screens of an image
// dataset as the Hugging Face Hub holds them, tensorview against hyparquet.
// Its rows (BENCH_HF_ROWS, 3000):
//
//   - image: struct{bytes: binary, path: string}, Hugging Face's Image
//     feature: a 256×256 JPEG (quality hfJPEGQuality) of gradients and
//     noise, distinct per row, 50–90 KB (as photos: snappy gains nothing);
//     path "train/<row>.jpg";
//   - label: int64, a ClassLabel of hfClasses names;
//   - caption: string, a sentence of about 50 bytes;
//   - emb: a 16×16 float32 arrow.fixed_shape_tensor.
//
// The schema's metadata "huggingface" holds the features as datasets
// writes them. Three files of the same rows in BENCH_DIR:
//
//   - hf-<rows>.arrow: Arrow IPC, record batches of 100 rows (arrow-go);
//   - hf-<rows>.parquet: Parquet as Hugging Face uploads image datasets:
//     row groups of 100 rows, snappy, statistics per column chunk, NO page
//     index, the Arrow schema in ARROW:schema (parquet-wasm 0.8.0, arrow-rs,
//     in Node.js; the offset index arrow-rs always writes is then removed
//     by dropPageIndex), the features in the footer's key-value metadata;
//   - hf-<rows>-pageindex.parquet: the same with a page index (column and
//     offset index, page statistics).
//
// Both Parquet files are written from the Arrow file's record batches, so
// the three hold the same values.
const (
	layoutHF          = "hf"
	layoutHFArrow     = "hf-arrow"
	layoutHFParquet   = "hf-parquet"
	layoutHFPageIndex = "hf-parquet-pageindex"
	hfSide            = 256 // the JPEGs' width and height
	hfJPEGQuality     = 98
	hfEmbSide         = 16
	hfViewRows        = 8 // the rows a first screen shows
	hfVersion         = 1 // changes when the generator writes other bytes
)

// hfClasses are the label's ClassLabel names.
var hfClasses = []string{"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"}

// hfFile is one of the hf layout's files, or the parquet layout's tensor
// file when it joins the comparison.
type hfFile struct {
	benchFile
	Format    string `json:"format"` // arrow or parquet
	PageIndex bool   `json:"page_index"`
	// ViewBytes is what the first hfViewRows rows hold: the bytes of their
	// values (the JPEGs, paths, captions, labels and embeddings; a tensor
	// file's pixels, ids, scores and labels), before compression.
	ViewBytes int64 `json:"view_bytes"`
	// Image is the column whose first value a viewer draws; Shape a tensor
	// column's shape (height, width, channels), nil for encoded images.
	Image string `json:"image"`
	Shape []int  `json:"shape,omitempty"`
}

// label names the file in the table.
func (f *hfFile) label() string {
	switch f.Layout {
	case layoutHFArrow:
		return "HF-like, Arrow IPC (batches of 100)"
	case layoutHFParquet:
		return "HF-like, Parquet (no page index)"
	case layoutHFPageIndex:
		return "HF-like, Parquet (page index)"
	}
	return fmt.Sprintf("tensors %s, Parquet (ZSTD, page index)", f.Size)
}

// hfFeatures is the "huggingface" schema metadata: the features as
// datasets writes them.
func hfFeatures() string {
	names, _ := json.Marshal(hfClasses)
	return `{"info":{"features":{"image":{"_type":"Image"},"label":{"names":` + string(names) +
		`,"_type":"ClassLabel"},"caption":{"dtype":"string","_type":"Value"},"emb":{"shape":[16,16],"dtype":"float32","_type":"Array2D"}}}}`
}

// hfSchema is the hf layout's schema.
func hfSchema() (*arrow.Schema, *tensorext.FixedShapeTensorType, error) {
	emb, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{hfEmbSide, hfEmbSide}, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	img := arrow.StructOf(
		arrow.Field{Name: "bytes", Type: arrow.BinaryTypes.Binary, Nullable: true},
		arrow.Field{Name: "path", Type: arrow.BinaryTypes.String, Nullable: true},
	)
	md := arrow.NewMetadata([]string{"huggingface"}, []string{hfFeatures()})
	return arrow.NewSchema([]arrow.Field{
		{Name: "image", Type: img, Nullable: true},
		{Name: "label", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "caption", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "emb", Type: emb, Nullable: true},
	}, &md), emb, nil
}

// hfJPEG is row's picture: colour gradients that move with the row, under
// per-pixel noise whose amplitude varies by row (16 to 96 levels), so that
// the files are 50–90 KB and no two rows are alike.
func hfJPEG(row int) ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, hfSide, hfSide))
	rng := rand.New(rand.NewPCG(uint64(row), 0x5eed))
	amp := 16 + (row*29)%81
	for y := range hfSide {
		for x := range hfSide {
			p := img.Pix[y*img.Stride+4*x : y*img.Stride+4*x+4]
			base := [3]int{x + row*7, y + row*3, (x ^ y) + row}
			for c := range 3 {
				p[c] = uint8(min(255, max(0, base[c]%256+rng.IntN(2*amp+1)-amp)))
			}
			p[3] = 255
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: hfJPEGQuality}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// hfCaption is row's caption.
func hfCaption(row int) string {
	return fmt.Sprintf("a photo of a %s, number %d, in a field of noise", hfClasses[row%len(hfClasses)], row)
}

// hfEmb is row's embedding, row-major: element k is row + k/256.
func hfEmb(row int) []float32 {
	out := make([]float32, hfEmbSide*hfEmbSide)
	for k := range out {
		out[k] = float32(row) + float32(k)/256
	}
	return out
}

// hfBatch builds the record batch of rows [first, first+n).
func hfBatch(mem memory.Allocator, schema *arrow.Schema, emb *tensorext.FixedShapeTensorType, first, n int) (arrow.RecordBatch, error) {
	imgs := array.NewStructBuilder(mem, schema.Field(0).Type.(*arrow.StructType))
	defer imgs.Release()
	imgBytes := imgs.FieldBuilder(0).(*array.BinaryBuilder)
	imgPath := imgs.FieldBuilder(1).(*array.StringBuilder)
	labels := array.NewInt64Builder(mem)
	defer labels.Release()
	caps := array.NewStringBuilder(mem)
	defer caps.Release()
	embs := tensorext.NewFixedShapeTensorBuilder(mem, emb)
	defer embs.Release()
	for r := first; r < first+n; r++ {
		pic, err := hfJPEG(r)
		if err != nil {
			return nil, err
		}
		imgs.Append(true)
		imgBytes.Append(pic)
		imgPath.Append("train/" + strconv.Itoa(r) + ".jpg")
		labels.Append(int64(r % len(hfClasses)))
		caps.Append(hfCaption(r))
		if err := embs.AppendTensor(hfEmb(r)); err != nil {
			return nil, err
		}
	}
	cols := []arrow.Array{imgs.NewArray(), labels.NewArray(), caps.NewArray(), embs.NewFixedShapeTensorArray()}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(schema, cols, int64(n)), nil
}

// hfRowBytes is what row r holds (hfFile.ViewBytes): its JPEG, path,
// caption, label and embedding.
func hfRowBytes(r int, jpegBytes int) int64 {
	return int64(jpegBytes+len("train/"+strconv.Itoa(r)+".jpg")+len(hfCaption(r))) + 8 + 4*hfEmbSide*hfEmbSide
}

// parseRows reads a row count such as 3000, 3K or 1M (decimal units).
func parseHFRows(s string) (int, error) {
	n, err := parseRows(s)
	if err == nil && n < hfViewRows {
		err = fmt.Errorf("want at least %d rows, not %q", hfViewRows, s)
	}
	return n, err
}

// hfFiles writes (or reuses) the hf layout's three files of rows rows in
// dir.
func hfFiles(dir string, rows int) ([]*hfFile, error) {
	batches := (rows + pqRowGroupRows - 1) / pqRowGroupRows
	base := filepath.Join(dir, fmt.Sprintf("hf-%d", rows))
	mk := func(layout, path, format string, pageIndex bool) *hfFile {
		return &hfFile{benchFile: benchFile{Size: strconv.Itoa(rows), Layout: layout, Rows: rows, Batches: batches, Version: hfVersion, Path: path},
			Format: format, PageIndex: pageIndex, Image: "image"}
	}
	files := []*hfFile{
		mk(layoutHFArrow, base+".arrow", "arrow", false),
		mk(layoutHFParquet, base+".parquet", "parquet", false),
		mk(layoutHFPageIndex, base+"-pageindex.parquet", "parquet", true),
	}
	need := int64(rows) * 100_000 // about the JPEGs
	for _, f := range files {
		if old, ok := existing(f.benchFile); ok {
			logf("reusing %s (%d rows, %.1f MB)", f.Path, old.Rows, float64(old.Bytes)/1e6)
			f.benchFile = old
			continue
		}
		logf("writing %s: %d rows in %d %s of %d", f.Path, rows, batches, map[string]string{"arrow": "record batches", "parquet": "row groups"}[f.Format], pqRowGroupRows)
		var err error
		f.Bytes, err = writeVia(f.Path, need, func(tmp string) error {
			if f.Format == "arrow" {
				return writeHFArrow(tmp, rows)
			}
			return writeHFParquet(tmp, files[0].Path, f.PageIndex)
		})
		if err != nil {
			return nil, err
		}
		if err := writeSidecar(f.Path, f.benchFile); err != nil {
			return nil, err
		}
	}
	view, err := hfViewBytes(files[0].Path)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		f.ViewBytes = view
	}
	return files, nil
}

// writeHFArrow writes the Arrow file: record batches of pqRowGroupRows.
func writeHFArrow(path string, rows int) error {
	schema, emb, err := hfSchema()
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	return writeArrowBatches(path, schema, rows, pqRowGroupRows, func(first, n int) (arrow.RecordBatch, error) {
		return hfBatch(mem, schema, emb, first, n)
	})
}

// writeHFParquet writes a Parquet file of the Arrow file arrowPath's
// record batches, a row group each, with or without a page index.
func writeHFParquet(path, arrowPath string, pageIndex bool) error {
	in, err := os.Open(arrowPath)
	if err != nil {
		return err
	}
	defer in.Close()
	r, err := ipc.NewFileReader(in)
	if err != nil {
		return err
	}
	defer r.Close()
	o := pqOptions{rowGroupRows: pqRowGroupRows, codec: "SNAPPY", noPageStats: !pageIndex,
		keyValue: map[string]string{"huggingface": hfFeatures()}}
	rows := 0
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			return err
		}
		rows += int(rec.NumRows())
		rec.Release()
	}
	err = pipeParquet(path, r.Schema(), o, rows, func(first, n int) (arrow.RecordBatch, error) {
		rec, err := r.RecordBatchAt(first / pqRowGroupRows)
		if err == nil && int(rec.NumRows()) != n {
			rec.Release()
			return nil, fmt.Errorf("%s: record batch %d has %d rows, want %d", arrowPath, first/pqRowGroupRows, rec.NumRows(), n)
		}
		return rec, err
	})
	if err != nil || pageIndex {
		return err
	}
	n, err := dropPageIndex(path)
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: no offset index to drop (has parquet-wasm changed?)", path)
	}
	return err
}

// hfViewBytes is what the first hfViewRows rows of the Arrow file path
// hold (hfRowBytes each).
func hfViewBytes(path string) (int64, error) {
	in, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	r, err := ipc.NewFileReader(in)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	rec, err := r.RecordBatchAt(0)
	if err != nil {
		return 0, err
	}
	defer rec.Release()
	pics := rec.Column(0).(*array.Struct).Field(0).(*array.Binary)
	var sum int64
	for i := range min(hfViewRows, int(rec.NumRows())) {
		sum += hfRowBytes(i, len(pics.Value(i)))
	}
	return sum, nil
}

// hfTensorFile is the parquet layout's tensor file of size (224×224×3
// uint8 tensors, ZSTD, a page index) as a file of the comparison.
func hfTensorFile(c config, size string) (*hfFile, error) {
	f, err := plan(c.dir, size, layoutParquet)
	if err != nil {
		return nil, err
	}
	if f, err = ensure(f, logf); err != nil {
		return nil, err
	}
	view := int64(min(hfViewRows, f.Rows)) * rowBytes
	return &hfFile{benchFile: f, Format: "parquet", PageIndex: true, ViewBytes: view, Image: "image", Shape: []int{imgH, imgW, imgC}}, nil
}

// hfSizes reads BENCH_HF_TENSORS: sizes of the parquet layout's tensor
// files to compare too ("none": none).
func hfSizes(s string) []string {
	if strings.TrimSpace(s) == "none" {
		return nil
	}
	return list(s)
}
