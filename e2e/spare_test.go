//go:build !wasm

package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestParquetSpareWorker: the Parquet reader's worker is not started when
// the page loads, but on a sign that a file is about to be picked (the
// file chooser's button pressed) or dropped (a drag of files entering the
// page), and the next Parquet file opened adopts it: no worker more is
// started for it, and its cells are the writer's values.
func TestParquetSpareWorker(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowserWith(t, "", `(() => {
		const W = window.Worker;
		window.__workers = {made: 0, live: 0};
		window.Worker = class extends W {
			constructor(...args) { super(...args); window.__workers.made++; window.__workers.live++; }
			terminate() { window.__workers.live--; return super.terminate(); }
		};
	})()`)
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	var made int
	if b.eval(`window.__workers.made`, &made); made != 0 {
		t.Fatalf("%d workers started with the page, want none before a file is about to be opened", made)
	}
	const name = "arrowrs_tensors.parquet"
	cols := loadNongo(t, name)
	path := filepath.Join("..", "testdata", name)

	// The button pressed: a worker starts; the file picked adopts it.
	b.eval(`document.querySelector('label.button').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true})), true`, nil)
	b.waitFor(`window.__workers.made === 1`)
	b.upload(path)
	b.waitOpened(name)
	b.checkTensorCells(cols)
	var workers struct{ Made, Live int }
	if b.eval(`window.__workers`, &workers); workers.Made != 1 || workers.Live != 1 {
		t.Errorf("after the file picked: %+v workers made and live, want the one started on the press, adopted", workers)
	}

	// A drag of files entering the page: another starts, which the next
	// Parquet file adopts.
	b.eval(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["PAR1"], "next.parquet"));
		document.body.dispatchEvent(new DragEvent('dragenter', {bubbles: true, dataTransfer: dt}));
		return true;
	})()`, nil)
	b.waitFor(`window.__workers.made === 2`)
	const next = "parquet_tensors.parquet"
	b.upload(filepath.Join("..", "testdata", next))
	b.waitFor(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === '` + next + `'`)
	want := loadParquetExpected(t).Files[next]
	if f := b.parquetFacts(); f.Format != "Parquet" || f.Rows != fmt.Sprint(want.NumRows) || f.CreatedBy != want.CreatedBy {
		t.Errorf("%s: file facts %+v, want %d rows, created by %q", next, f, want.NumRows, want.CreatedBy)
	}
	if b.eval(`window.__workers.made`, &made); made != 2 {
		t.Errorf("%d workers made after the second file, want 2 (the one started on the drag, adopted)", made)
	}
}
