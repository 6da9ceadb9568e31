package main

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The Parquet layout: the same rows as the Arrow files (id, the 224×224×3
// uint8 image tensor with dim names H, W, C, score, label), written by
// parquet-wasm 0.8.0 (arrow-rs's Parquet writer, what tensorview reads
// Parquet with in the browser) in row groups of pqRowGroupRows rows, the
// extension type in ARROW:schema. pqRowGroupRows is what Hugging Face
// datasets uses for image datasets (config.PARQUET_ROW_GROUP_SIZE_FOR_IMAGE_DATASETS):
// 15 MB of pixels per row group.
const (
	layoutParquet  = "parquet"
	pqRowGroupRows = 100
)

//go:embed parquet_gen.mjs
var parquetGenJS string

// nodeModules is where parquet-wasm is installed (npm ci in testdata).
var nodeModules = filepath.Join("testdata", "node_modules")

// benchModules holds the engines only the benchmark needs (DuckDB-wasm),
// installed from bench/browser/package.json by make bench-browser.
var benchModules = filepath.Join("bench", "browser", "node_modules")

// writeParquet streams the rows to parquet_gen.mjs in Node.js, one row
// group at a time as an Arrow IPC stream: memory holds one row group on
// each side. The dataset layout's shard is snappy, the parquet layout's
// file ZSTD.
func writeParquet(path string, f benchFile) error {
	codec := "ZSTD"
	if f.Layout == layoutShardParquet {
		codec = "SNAPPY"
	}
	schema, typ, err := schemaOf()
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	chunk := make([]uint8, min(pqRowGroupRows, f.Rows)*tensorBytes)
	return pipeParquet(path, schema, pqOptions{rowGroupRows: pqRowGroupRows, codec: codec}, f.Rows,
		func(first, n int) (arrow.RecordBatch, error) { return batch(mem, schema, typ, chunk, first, n) })
}

// pqOptions are parquet_gen.mjs's settings: rows per row group, the
// compression (a parquet-wasm Compression name: ZSTD, SNAPPY, …), whether
// columns are dictionary-encoded, whether to leave out the column index
// (statistics per column chunk only; arrow-rs still writes the offset
// index) and key-value metadata for the footer.
type pqOptions struct {
	rowGroupRows int
	codec        string
	dictionary   bool
	noPageStats  bool
	keyValue     map[string]string
}

// pipeParquet writes rows rows of schema, which next builds a row group
// at a time, to the Parquet file path through parquet_gen.mjs.
func pipeParquet(path string, schema *arrow.Schema, o pqOptions, rows int, next func(first, n int) (arrow.RecordBatch, error)) (err error) {
	if _, err := os.Stat(filepath.Join(nodeModules, "parquet-wasm", "node", "parquet_wasm.js")); err != nil {
		return fmt.Errorf("no parquet-wasm in %s (cd testdata && npm ci): %w", nodeModules, err)
	}
	stats := "Page"
	if o.noPageStats {
		stats = "Chunk"
	}
	kv, err := json.Marshal(o.keyValue)
	if err != nil {
		return err
	}
	if o.keyValue == nil {
		kv = []byte("{}")
	}
	cmd := exec.Command("node", "--input-type=module", "-e", parquetGenJS, "--", nodeModules, path,
		fmt.Sprint(o.rowGroupRows), o.codec, fmt.Sprint(o.dictionary), stats, string(kv))
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = os.Stderr, &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("node: %w", err)
	}
	werr := func() error {
		defer stdin.Close()
		var buf bytes.Buffer
		for first := 0; first < rows; first += o.rowGroupRows {
			rec, err := next(first, min(o.rowGroupRows, rows-first))
			if err != nil {
				return err
			}
			buf.Reset()
			w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
			err = w.Write(rec)
			rec.Release()
			if err == nil {
				err = w.Close()
			}
			if err != nil {
				return err
			}
			if err := binary.Write(stdin, binary.LittleEndian, uint64(buf.Len())); err != nil {
				return err
			}
			if _, err := io.Copy(stdin, &buf); err != nil {
				return err
			}
		}
		return nil
	}()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("parquet_gen.mjs: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return werr
}
