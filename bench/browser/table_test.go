package main

import (
	"strings"
	"testing"
)

func TestMedianAndSpread(t *testing.T) {
	runs := []*tvResult{{FirstMs: 60}, {FirstStatus: "timeout"}, {FirstMs: 40}, {FirstMs: 50}, {FirstMs: 45}}
	if m := median(runs, tvFirst); m.FirstMs != 45 {
		t.Errorf("median of 60, 40, 50, 45 (and a timeout) = %v, want 45 (the lower middle)", m.FirstMs)
	}
	if got := median(runs[:3], tvFirst); got.FirstMs != 40 {
		t.Errorf("median of 60, 40 = %v, want 40", got.FirstMs)
	}
	if got := spread(runs, tvFirst); got != " (40–60)" {
		t.Errorf("spread = %q, want \" (40–60)\"", got)
	}
	if got := spread(runs[:2], tvFirst); got != "" {
		t.Errorf("spread of one good run = %q, want none", got)
	}
	failed := []*ajsResult{{Error: "NotReadableError"}, {Error: "NotReadableError", FailMs: 12}}
	if got := median(failed, arrowFirst); got != failed[1] {
		t.Errorf("median of failures = %+v, want the last run", got)
	}
	if median[tvResult](nil, tvFirst) != nil {
		t.Error("median of no runs is not nil")
	}
}

func TestTableURLColumns(t *testing.T) {
	f := benchFile{Size: "1G", Layout: "b256", Rows: 100, Batches: 1, Bytes: 1e9}
	results := []result{
		{File: f, Source: sourceURL, Tensorview: &tvResult{FirstMs: 120, FirstBytes: 4e6, FirstRequests: 5, WasmBytes: 1e8},
			ArrowJS: &ajsResult{FirstRowMs: 2400, Bytes: 1e9, JSHeapBytes: 1e6, BackingBytes: 1e9}},
		{File: f, Source: sourceFile, Tensorview: &tvResult{FirstMs: 50, WasmBytes: 1e8},
			ArrowJS: &ajsResult{FirstRowMs: 700, JSHeapBytes: 1e6, BackingBytes: 1e9}},
	}
	pq := benchFile{Size: "1G", Layout: layoutParquet, Rows: 100, Batches: 1, Bytes: 1e9}
	results = append(results, result{File: pq, Source: sourceFile, Tensorview: &tvResult{FirstMs: 400, WasmBytes: 1e8},
		ArrowJS: &ajsResult{Reader: "parquet-wasm", FirstRowMs: 8000, JSHeapBytes: 2e6, BackingBytes: 1e9, WasmBytes: 3e9}},
		result{File: pq, Source: sourceURL, ArrowJS: &ajsResult{Reader: "parquet-wasm", Error: "RuntimeError: unreachable", FailMs: 48000, Bytes: 1e9, JSHeapBytes: 2e6, BackingBytes: 1e9, RendererPeak: 5.4e9}})
	var b strings.Builder
	printTable(&b, config{}, results)
	for _, want := range []string{
		"| tensors-1G-b256 | b256 | url | 1000 | 100 | 1 | 120 | – | – | 4 (0.40 %) (5) |",
		"| 2400 | 1000 (100.00 %) | 1 + 1000 |  | 20.00 |",
		"| tensors-1G-b256 | b256 | file | 1000 | 100 | 1 | 50 | – | – | – |",
		"| 700 | – | 1 + 1000 |  | 14.00 |",
		"| tensors-1G-parquet [1] | parquet | file | 1000 | 100 | 1 | 400 | – | – | – |",
		"| 8000 | – | 2 + 1000 + wasm 3000 |  | 20.00 |",
		"[1] tensors-1G-parquet: the arrow-js columns are parquet-wasm 0.8.0 reading the whole file",
		"| failed after 48000 | 1000 (100.00 %) | 2 + 1000 | RuntimeError [3] |  | – / 5400 |",
		"[3] parquet-wasm, tensors-1G-parquet: RuntimeError: unreachable",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestTableFloor(t *testing.T) {
	f := benchFile{Size: "100M", Layout: "single", Rows: 10, Batches: 1, Bytes: 1e8}
	runs := []*tvResult{
		{FirstMs: 120, FloorMs: 40, Marks: map[string]float64{"tv:open": 10, "tv:first-frame": 100}},
		{FirstMs: 90, FloorMs: 60, Marks: map[string]float64{"tv:open": 20, "tv:first-frame": 80}},
		{FirstMs: 100, FloorStatus: "timeout"},
		{FirstMs: 200, FloorMs: 50, Marks: map[string]float64{"tv:open": 30, "tv:first-frame": 180}},
	}
	results := []result{{File: f, Source: sourceFile, Tensorview: median(runs, tvFirst), TensorviewRuns: runs}}
	var b strings.Builder
	printTable(&b, config{repeat: 4}, results)
	// Floors 40, 50, 60: median 50. Ratios 3.0, 1.5, 4.0: median 3.0.
	for _, want := range []string{
		"| tensors-100M-single | single | file | 100 | 10 | 1 | 100 (90–200) | 50 (40–60) | 3.0× (1.5–4.0) | – |",
		"- tensors-100M-single by file: open 20 [10–30], first-frame 100 [80–180]",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
