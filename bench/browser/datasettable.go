package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// wayText says what a way of opening the dataset is, for the table.
func wayText(way string, n int) string {
	switch way {
	case wayFirst:
		return "first shard alone, ?url="
	case wayURLs:
		return fmt.Sprintf("%d × ?url=", n)
	case wayHub:
		return "?hf= (emulated Hub)"
	case wayList:
		return "?urls= (list of links)"
	}
	return way
}

// printDatasetTable writes the dataset runs as a Markdown table: per
// format, way and build, the run with the median first-previews time and
// the range of all runs, with its ratio to the first shard alone (the
// same build's median).
func printDatasetTable(w io.Writer, c config, sets []*shardSet, rows []*dsRow) {
	fmt.Fprintf(w, "\ndatasets: %d shards of %s; network between the page and the files: %s; timeout %v per measurement; MB are 10^6 bytes",
		c.shards, c.shardSize, c.net, c.timeout)
	if c.repeat > 1 {
		fmt.Fprintf(w, "; %d runs of each, taking turns: the run with the median first previews, (the range of all runs)", c.repeat)
	}
	fmt.Fprint(w, "\n\n")
	for _, s := range sets {
		fmt.Fprintf(w, "- %s: %s, %s MB (%d rows, %d %s), served as %d shards (%s MB in all)\n", s.Format, s.File.Path, mbf(float64(s.File.Bytes)),
			s.File.Rows, s.File.Batches, map[string]string{"arrow": "record batches", "parquet": "row groups, snappy"}[s.Format],
			s.N, mbf(float64(s.File.Bytes)*float64(s.N)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| shards | way | build | first previews ms | × first shard alone | after app.wasm downloaded ms | MB before the first previews (requests) | all open ms | MB until all open (requests) | rows | wasm MB then | renderer peak RSS MB |")
	fmt.Fprintln(w, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var notes []string
	note := func(s string) string {
		notes = append(notes, s)
		return fmt.Sprintf(" [%d]", len(notes))
	}
	alone := map[string]float64{} // format + build → the first shard's median
	for _, row := range rows {
		if m := median(row.runs, dsFirst); row.way == wayFirst && m != nil && m.ok() {
			alone[row.set.Format+row.build] = m.FirstMs
		}
	}
	for _, row := range rows {
		m := median(row.runs, dsFirst)
		if m == nil {
			continue
		}
		build := "this"
		if row.build != "" {
			build = row.build
		}
		cells := []string{row.set.Format, wayText(row.way, row.set.N), build}
		if !m.ok() {
			cells = append(cells, short(m.Status)+note(fmt.Sprintf("%s by %s: %s%s", row.set.Format, row.way, m.Status, pageErr(m.PageError))), "", "", "", "", "", "", "", "")
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
			continue
		}
		ratio := "–"
		if a := alone[row.set.Format+row.build]; a > 0 {
			ratio = fmt.Sprintf("%.2f×", m.FirstMs/a)
			if lo, hi, n := bounds(row.runs, dsFirst); n > 1 {
				ratio += fmt.Sprintf(" (%.2f–%.2f)", lo/a, hi/a)
			}
		}
		after := "–"
		if a := median(row.runs, dsAfterWasm); a != nil {
			if v, ok := dsAfterWasm(a); ok {
				after = msf(v) + spread(row.runs, dsAfterWasm)
			}
		}
		cells = append(cells, msf(m.FirstMs)+spread(row.runs, dsFirst), ratio, after,
			fmt.Sprintf("%.1f (%d)", float64(m.FirstBytes)/1e6, m.FirstRequests))
		if all := median(row.runs, dsAll); all != nil && all.AllStatus == "" && all.Check == "" {
			cells = append(cells, msf(all.AllOpenMs)+spread(row.runs, dsAll), fmt.Sprintf("%.1f (%d)", float64(all.AllBytes)/1e6, all.AllRequests),
				fmt.Sprint(all.Rows), mbf(all.WasmBytes), rssMB(all.RendererPeak))
		} else {
			why := m.AllStatus
			if why == "" {
				why = m.Check
			}
			cells = append(cells, short(why)+note(fmt.Sprintf("%s by %s, all open: %s%s", row.set.Format, row.way, why, pageErr(m.PageError))), "", fmt.Sprint(m.Rows), mbf(m.WasmBytes), rssMB(m.RendererPeak))
		}
		for _, r := range row.runs {
			if r.HubViolations > 0 {
				cells[len(cells)-1] += note(fmt.Sprintf("%s by %s: %d requests the emulated Hub refused (see the log)", row.set.Format, row.way, r.HubViolations))
				break
			}
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for i, n := range notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, n)
		}
	}
	printDatasetMarks(w, rows)
}

// printDatasetMarks writes, per row, the median time from the navigation's
// start of each of page.js linkMarks' marks, in the order they came.
func printDatasetMarks(w io.Writer, rows []*dsRow) {
	var lines []marksLine
	for _, row := range rows {
		l := marksLine{label: row.set.Format + " by " + row.way}
		if row.build != "" {
			l.label += " (" + row.build + ")"
		}
		for _, r := range row.runs {
			if r.ok() && len(r.Marks) > 0 {
				l.marks = append(l.marks, r.Marks)
			}
		}
		lines = append(lines, l)
	}
	printMarkLines(w, "marks (ms from the navigation's start; median of the runs, [range]; tv: marks from a perfmarks build)", lines)
}

// marksLine is a row's marks, one map (name → ms) per run.
type marksLine struct {
	label string
	marks []map[string]float64
}

// printMarkLines writes under title, per line with marks, the median of each
// mark over its runs (and their range), in the order they came ("tv:"
// left out of the names).
func printMarkLines(w io.Writer, title string, lines []marksLine) {
	header := false
	for _, l := range lines {
		if len(l.marks) == 0 {
			continue
		}
		if !header {
			fmt.Fprintf(w, "\n%s:\n\n", title)
			header = true
		}
		names := map[string]bool{}
		for _, m := range l.marks {
			for k := range m {
				names[k] = true
			}
		}
		order := sortedKeys(names)
		sort.SliceStable(order, func(i, j int) bool {
			mi, _ := medianMark(l.marks, order[i])
			mj, _ := medianMark(l.marks, order[j])
			return mi < mj
		})
		var parts []string
		for _, k := range order {
			m, rng := medianMark(l.marks, k)
			parts = append(parts, fmt.Sprintf("%s %.0f%s", strings.TrimPrefix(k, "tv:"), m, rng))
		}
		fmt.Fprintf(w, "- %s: %s\n", l.label, strings.Join(parts, ", "))
	}
}

// writeDatasetJSON writes the sets and every run to path.
func writeDatasetJSON(path string, c config, sets []*shardSet, rows []*dsRow) error {
	type rowJSON struct {
		Format string      `json:"format"`
		Way    string      `json:"way"`
		Build  string      `json:"build,omitempty"`
		Runs   []*dsResult `json:"runs"`
	}
	out := struct {
		Network string      `json:"network"`
		Sets    []*shardSet `json:"sets"`
		Rows    []rowJSON   `json:"rows"`
	}{Network: c.net.String(), Sets: sets}
	for _, r := range rows {
		out.Rows = append(out.Rows, rowJSON{r.set.Format, r.way, r.build, r.runs})
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
