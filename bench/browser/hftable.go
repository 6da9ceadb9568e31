package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// hfReader names a row's reader for the table.
func hfReader(row *hfRow) string {
	switch {
	case row.viewer == viewerHyparquet:
		return "hyparquet 1.33.0"
	case row.build != "":
		return "tensorview (" + row.build + ")"
	}
	return "tensorview"
}

// hfSourceText says how the file was opened.
func hfSourceText(source string) string {
	if source == sourceURL {
		return "by URL"
	}
	return "dropped"
}

// hfVisitText says how the page was visited: cold (a fresh browser) or
// warm (the reader's page loaded once before).
func hfVisitText(visit string) string {
	if visit == visitWarm {
		return "warm"
	}
	return "cold"
}

// mbReq formats bytes and requests: "1.23 (4)".
func mbReq(b hfBytes) string {
	return fmt.Sprintf("%.2f (%d)", float64(b.Bytes)/1e6, b.Requests)
}

// printHFTable writes the hf layout's runs as a Markdown table: per file,
// source, visit and reader, the run with the median time to the first
// image drawn, the range of all runs, its ratio to hyparquet's median on
// the same file, source and visit, and what the server sent by then.
func printHFTable(w io.Writer, c config, files []*hfFile, rows []*hfRow) {
	fmt.Fprintf(w, "\nfirst screens against hyparquet: the first %d rows of every column and the first row's image drawn; network (the server's: the data, the engines and the app or page alike): %s; timeout %v; MB are 10^6 bytes",
		hfViewRows, c.net, c.timeout)
	if c.repeat > 1 {
		fmt.Fprintf(w, "; %d runs of each, taking turns: the run with the median time, (the range of all runs)", c.repeat)
	}
	if has(c.visits, visitWarm) {
		fmt.Fprint(w, "; a cold visit is a fresh browser's, a warm one the same after the reader's page was loaded once without a file (tensorview: its service worker controlling it, the app cached; hyparquet: its modules imported); the bytes are the timed visit's")
	}
	fmt.Fprint(w, "\n\n")
	for _, f := range files {
		fmt.Fprintf(w, "- %s: %s, %.1f MB, %d rows in %d %s; the first %d rows hold %.2f MB\n", f.label(), f.Path, float64(f.Bytes)/1e6, f.Rows, f.Batches,
			map[string]string{"arrow": "record batches", "parquet": "row groups"}[f.Format], hfViewRows, float64(f.ViewBytes)/1e6)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| file | opened | visit | reader | first row's image drawn ms | × hyparquet | data read MB (requests) | × the rows in view | engine fetched MB (requests) | app or page MB (requests) |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
	var notes []string
	note := func(s string) string {
		notes = append(notes, s)
		return fmt.Sprintf(" [%d]", len(notes))
	}
	key := func(row *hfRow) string { return row.file.Path + "\x00" + row.source + "\x00" + hfVisitText(row.visit) }
	hyp := map[string]float64{} // file, source and visit → hyparquet's median
	for _, row := range rows {
		if m := median(row.runs, hfFirst); row.viewer == viewerHyparquet && m != nil && m.ok() {
			hyp[key(row)] = m.Ms
		}
	}
	for _, row := range rows {
		m := median(row.runs, hfFirst)
		if m == nil {
			continue
		}
		cells := []string{row.file.label(), hfSourceText(row.source), hfVisitText(row.visit), hfReader(row)}
		if !m.ok() {
			why := m.Status
			if why == "" {
				why = m.Check
			}
			cells = append(cells, short(why)+note(fmt.Sprintf("%s, %s, %s, %s: %s%s", row.file.label(), hfSourceText(row.source), hfVisitText(row.visit), hfReader(row), why, pageErr(m.PageError))), "", "", "", "", "")
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
			continue
		}
		ratio := "–"
		if h := hyp[key(row)]; h > 0 && row.viewer != viewerHyparquet {
			ratio = fmt.Sprintf("%.2f×", m.Ms/h)
			if lo, hi, n := bounds(row.runs, hfFirst); n > 1 {
				ratio += fmt.Sprintf(" (%.2f–%.2f)", lo/h, hi/h)
			}
		}
		data, view := "– (a File)", "–"
		if row.source == sourceURL {
			data = mbReq(m.Sent[kindData])
			view = fmt.Sprintf("%.1f×", float64(m.Sent[kindData].Bytes)/float64(row.file.ViewBytes))
		}
		cells = append(cells, msf(m.Ms)+spread(row.runs, hfFirst), ratio, data, view, mbReq(m.Sent[kindEngine]), mbReq(m.Sent[kindShell]))
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for i, n := range notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, n)
		}
	}
	var lines []marksLine
	for _, row := range rows {
		l := marksLine{label: fmt.Sprintf("%s, %s, %s, %s", row.file.label(), hfSourceText(row.source), hfVisitText(row.visit), hfReader(row))}
		for _, r := range row.runs {
			if r.ok() && len(r.Marks) > 0 {
				l.marks = append(l.marks, r.Marks)
			}
		}
		lines = append(lines, l)
	}
	printMarkLines(w, "marks (ms, from the navigation by URL, from the choice dropped; the page's main thread's requests; median of the runs, [range])", lines)
}

// writeHFJSON writes the files and every run to path.
func writeHFJSON(path string, c config, files []*hfFile, rows []*hfRow) error {
	type rowJSON struct {
		File   string      `json:"file"`
		Source string      `json:"source"`
		Visit  string      `json:"visit"` // cold or warm
		Reader string      `json:"reader"`
		Runs   []*hfResult `json:"runs"`
	}
	out := struct {
		Network  string    `json:"network"`
		Visits   []string  `json:"visits"`
		ViewRows int       `json:"view_rows"`
		Files    []*hfFile `json:"files"`
		Rows     []rowJSON `json:"rows"`
	}{Network: c.net.String(), Visits: c.visits, ViewRows: hfViewRows, Files: files}
	for _, r := range rows {
		out.Rows = append(out.Rows, rowJSON{r.file.Path, r.source, hfVisitText(r.visit), hfReader(r), r.runs})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
