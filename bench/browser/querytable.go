package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// opColumns are the columns a query needs: what its bytes read are
// measured against.
var opColumns = map[string][]string{opSort: {"score"}, opFilter: {"label", "score"}}

func qFirst(r *qResult) (float64, bool) { return r.FirstMs, r.ok() }
func qDone(r *qResult) (float64, bool)  { return r.DoneMs, r.ok() }

// printQueryTable writes the query benchmark's runs as a Markdown table:
// per query and way, the run with the median first-screen time, and the
// range of all runs.
func printQueryTable(w io.Writer, c config, files []queryFile, rows []*qRow) {
	fmt.Fprintf(w, "\nsort and filter: %d rows; sort %s, filter %s; DuckDB-wasm 1.28.0: %s; timeout %v per measurement; MB are 10^6 bytes",
		c.queryRows, qSortKey, qFilter, duckdbSQL(opSort, "<file>")+" / … WHERE label = 'cat' AND score > 0.9 LIMIT 50", c.timeout)
	if c.repeat > 1 {
		fmt.Fprintf(w, "; %d runs of each, taking turns: the run with the median first-screen time, (the range of all runs)", c.repeat)
	}
	fmt.Fprint(w, "\n\n")
	for _, f := range files {
		var parts []string
		for _, k := range sortedKeys(f.ColumnBytes) {
			parts = append(parts, fmt.Sprintf("%s %s", k, mbf(float64(f.ColumnBytes[k]))))
		}
		fmt.Fprintf(w, "- %s: %s MB, %d %s of %d rows; MB by column: %s\n", f.Path, mbf(float64(f.Bytes)), f.Batches,
			map[string]string{"arrow": "record batches", "parquet": "row groups (snappy)"}[f.Format], qBatchRows, strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| query | viewer | file | source | first screen ms | done ms | file opened / engine started ms | MB read (requests) | × the columns' MB | long tasks from the file open (count, longest ms) | wasm MB | JS heap MB | renderer peak RSS MB | first screen / DuckDB's | check |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
	var notes []string
	note := func(s string) string {
		notes = append(notes, s)
		return fmt.Sprintf(" [%d]", len(notes))
	}
	duck := map[string]float64{}
	for _, r := range rows {
		if m := median(r.runs, qFirst); r.way.viewer == viewerDuckDB && m != nil && m.ok() {
			duck[r.op] = m.FirstMs
		}
	}
	for _, row := range rows {
		m := median(row.runs, qFirst)
		if m == nil {
			continue
		}
		f := row.way.file
		cols := opColumns[row.op]
		cells := []string{row.op, row.way.viewer, f.Format, row.way.source}
		if !m.ok() {
			why := m.Status
			if why == "" {
				why = "wrong answer: " + m.Check
			}
			cells = append(cells, short(m.Status)+note(fmt.Sprintf("%s %s, %s by %s: %s%s", row.way.viewer, row.op, f.Format, row.way.source, why, pageErr(m.PageError))))
			cells = append(cells, "–", "–", "–", "–", "–", "–", "–", "–", "–", "–")
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
			continue
		}
		cells = append(cells, msf(m.FirstMs)+spread(row.runs, qFirst), msf(m.DoneMs)+spread(row.runs, qDone))
		if row.way.viewer == viewerDuckDB {
			cells = append(cells, msf(m.EngineMs)+fmt.Sprintf(" (engine %s MB)", mbf(float64(m.EngineBytes))))
		} else {
			cells = append(cells, msf(m.OpenedMs))
		}
		read, ratio := "?", "?"
		if m.Bytes >= 0 {
			read = mbf(float64(m.Bytes))
			if m.Requests > 0 {
				read += fmt.Sprintf(" (%d)", m.Requests)
			}
			if n := f.involved(cols...); n > 0 {
				ratio = fmt.Sprintf("%.2f× of %s MB", float64(m.Bytes)/float64(n), mbf(float64(n)))
			}
		}
		cells = append(cells, read, ratio)
		long := "–"
		if row.way.viewer == viewerTV {
			long = fmt.Sprintf("%d, %.0f", m.LongTasks, m.LongMaxMs)
		}
		vs := "–"
		if d, ok := duck[row.op]; ok && row.way.viewer == viewerTV && d > 0 {
			vs = fmt.Sprintf("%.2f", m.FirstMs/d)
		}
		cells = append(cells, long, mbf(m.WasmBytes), mbf(m.JSHeapBytes), rssMB(m.RendererPeak), vs, "ok")
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "By URL, times run from the navigation's start (tensorview: a link ?url=…&sort=… or &filter=…, its app's download and start included; DuckDB: its page, the engine's download, compilation and start in a worker included); dropped, from the file input's change on a page opened with the link's query. A sort's first screen is its whole first screen, sorted; a filter's, its first matches shown (done: all counted). MB read: by URL what the server sent of the file; dropped, what the page read with Blob.arrayBuffer (? for Parquet: tensorview reads it in a worker). Columns: "+opColsText()+".")
	for i, n := range notes {
		fmt.Fprintf(w, "[%d] %s\n", i+1, n)
	}
}

func opColsText() string {
	var parts []string
	for _, op := range []string{opSort, opFilter} {
		parts = append(parts, op+" "+strings.Join(opColumns[op], " + "))
	}
	return strings.Join(parts, ", ")
}

func rssMB(b float64) string {
	if b <= 0 {
		return "?"
	}
	return mbf(b)
}

// writeQueryJSON writes the files and every run to path.
func writeQueryJSON(path string, files []queryFile, rows []*qRow) error {
	type rowJSON struct {
		Op     string     `json:"op"`
		Viewer string     `json:"viewer"`
		Format string     `json:"format"`
		Source string     `json:"source"`
		Runs   []*qResult `json:"runs"`
	}
	out := struct {
		Files []queryFile `json:"files"`
		Rows  []rowJSON   `json:"rows"`
	}{Files: files}
	for _, r := range rows {
		out.Rows = append(out.Rows, rowJSON{r.op, r.way.viewer, r.way.file.Format, r.way.source, r.runs})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
