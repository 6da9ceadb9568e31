package main

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

func mbf(b float64) string {
	if b < 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f", b/1e6)
}

func msf(v float64) string {
	if v < 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}

// cut shortens an error for a table cell; the notes under the table have
// it whole.
func cut(s string, n int) string {
	s = strings.ReplaceAll(s, "|", "/")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// printTable writes the results as a Markdown table followed by notes.
func printTable(w io.Writer, c config, results []result) {
	fmt.Fprintf(w, "\nscroll: %d ms at %d px/s; timeout %v per measurement; MB are 10^6 bytes", c.scrollMs, c.scrollPx, c.timeout)
	if c.repeat > 1 {
		fmt.Fprintf(w, "; %d runs of each: the run with the median first-row time, (the range of all runs)", c.repeat)
	}
	fmt.Fprint(w, "\n\n")
	fmt.Fprintln(w, "| file | layout | source | size MB | rows | batches | tv first previews ms | I/O floor ms | tv / floor | tv MB transferred (requests) | tv jump to last ms (row / preview) | tv frame max / p95 ms | tv long tasks: opening / indexing / scrolling (count, longest ms) | tv peak wasm MB | tv cache MB / budget | arrow-js first row ms | arrow-js MB transferred | arrow-js MB (JS heap + ArrayBuffers) | arrow-js error | arrow-js / tv first row | renderer peak RSS MB (tv / arrow-js) |")
	fmt.Fprintln(w, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
	var notes []string
	note := func(s string) int {
		notes = append(notes, s)
		return len(notes)
	}
	for _, r := range results {
		f := r.File
		name := "tensors-" + f.Size + "-" + f.Layout
		label := name
		if r.Build != "" {
			label += " (" + r.Build + ")"
		}
		if f.Note != "" {
			label += fmt.Sprintf(" [%d]", note(name+": "+f.Note))
		}
		if a := r.ArrowJS; a != nil && a.Reader != "" {
			label += fmt.Sprintf(" [%d]", note(name+": the arrow-js columns are "+a.Reader+" 0.8.0 reading the whole file (readParquet of all its bytes), then the first row through apache-arrow"))
		}
		cells := []string{label, f.Layout, r.Source, mbf(float64(f.Bytes)), fmt.Sprint(f.Rows), fmt.Sprint(f.Batches)}
		first, sent, jump, frames, long, wasm, cache := "", "–", "", "", "", "", ""
		if t := r.Tensorview; t != nil {
			switch {
			case t.FirstStatus != "":
				first = short(t.FirstStatus) + fmt.Sprintf(" [%d]", note("tensorview, "+name+": "+t.FirstStatus+pageErr(t.PageError)))
			default:
				first = msf(t.FirstMs) + spread(r.TensorviewRuns, tvFirst)
				if r.Source == sourceURL {
					sent = transferred(t.FirstBytes, f.Bytes) + fmt.Sprintf(" (%d)", t.FirstRequests)
				}
			}
			switch {
			case t.FirstStatus != "":
			case t.JumpStatus != "":
				jump = short(t.JumpStatus) + fmt.Sprintf(" [%d]", note("tensorview jump to the last row, "+name+": "+t.JumpStatus+pageErr(t.PageError)))
			default:
				jump = msf(t.JumpRowMs) + " / " + msf(t.JumpPreviewMs)
			}
			switch {
			case t.FirstStatus != "":
			case t.FrameStatus != "":
				frames = short(t.FrameStatus) + fmt.Sprintf(" [%d]", note("tensorview scrolling, "+name+": "+t.FrameStatus+pageErr(t.PageError)))
			default:
				frames = fmt.Sprintf("%.0f", t.FrameMaxMs) + spread(r.TensorviewRuns, tvFrameMax) +
					fmt.Sprintf(" / %.0f", t.FrameP95Ms) + spread(r.TensorviewRuns, tvFrameP95)
			}
			open, idx, scr := "–", "–", "–"
			if t.FirstStatus == "" && t.IndexStatus == "" {
				open = fmt.Sprintf("%d, %.0f", t.OpenLongTasks, t.OpenLongMaxMs)
				idx = fmt.Sprintf("%d, %.0f", t.IndexLongTasks, t.IndexLongMaxMs)
			}
			if t.FirstStatus == "" && t.FrameStatus == "" {
				scr = fmt.Sprintf("%d, %.0f", t.ScrollLongTasks, t.ScrollLongMaxMs)
			}
			long = open + " / " + idx + " / " + scr
			wasm = mbf(t.WasmBytes)
			if t.CacheBytes != "" || t.CacheBudget != "" {
				cache = bytesMB(t.CacheBytes) + " / " + bytesMB(t.CacheBudget)
			} else {
				cache = "–"
			}
		}
		floor, ratio := floorCells(r)
		cells = append(cells, first, floor, ratio, sent, jump, frames, long, wasm, cache)
		ajsFirst, ajsSent, ajsMB, ajsErr, ratio := "", "–", "", "", ""
		if a := r.ArrowJS; a != nil {
			reader := "arrow-js"
			if a.Reader != "" {
				reader = a.Reader
			}
			switch {
			case a.Status != "":
				ajsFirst = short(a.Status)
				if ajsFirst == "error" {
					ajsFirst += fmt.Sprintf(" [%d]", note(reader+", "+name+": "+a.Status))
				}
			case a.Error != "":
				ajsFirst = "failed after " + msf(a.FailMs)
				errName, _, _ := strings.Cut(a.Error, ":")
				ajsErr = cut(errName, 30) + fmt.Sprintf(" [%d]", note(reader+", "+name+": "+a.Error))
			default:
				ajsFirst = msf(a.FirstRowMs) + spread(r.ArrowJSRuns, arrowFirst)
				if t := r.Tensorview; t != nil && t.FirstStatus == "" && t.FirstMs > 0 {
					ratio = fmt.Sprintf("%.2f", a.FirstRowMs/t.FirstMs)
				}
			}
			if r.Source == sourceURL && a.Status == "" {
				ajsSent = transferred(a.Bytes, f.Bytes)
			}
			if a.JSHeapBytes >= 0 {
				ajsMB = mbf(a.JSHeapBytes) + " + " + mbf(a.BackingBytes)
			} else {
				ajsMB = "?"
			}
			if a.WasmBytes > 0 { // parquet-wasm's memory, apart from the ArrayBuffers
				ajsMB += " + wasm " + mbf(a.WasmBytes)
			}
		}
		rss := func(b float64) string {
			if b <= 0 {
				return "?"
			}
			return mbf(b)
		}
		tvPeak, otherPeak := "–", "–" // not measured
		if r.Tensorview != nil {
			tvPeak = rss(r.Tensorview.RendererPeak)
		}
		if r.ArrowJS != nil {
			otherPeak = rss(r.ArrowJS.RendererPeak)
		}
		peak := tvPeak + " / " + otherPeak
		cells = append(cells, ajsFirst, ajsSent, ajsMB, ajsErr, ratio, peak)
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	printMarks(w, results)
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for i, n := range notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, n)
		}
	}
}

// transferred writes bytes sent in MB with their share of the file.
func transferred(sent, file int64) string {
	if file <= 0 {
		return mbf(float64(sent))
	}
	return fmt.Sprintf("%s (%.2f %%)", mbf(float64(sent)), 100*float64(sent)/float64(file))
}

func tvFirst(t *tvResult) (float64, bool) { return t.FirstMs, t.FirstStatus == "" }

func tvFrameMax(t *tvResult) (float64, bool) {
	return t.FrameMaxMs, t.FirstStatus == "" && t.FrameStatus == ""
}

func tvFrameP95(t *tvResult) (float64, bool) {
	return t.FrameP95Ms, t.FirstStatus == "" && t.FrameStatus == ""
}

func arrowFirst(a *ajsResult) (float64, bool) { return a.FirstRowMs, a.Status == "" && a.Error == "" }

// bytesMB writes a byte count attribute in MB.
func bytesMB(s string) string {
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return mbf(n)
	}
	return s
}

// short is the table's word for a failure: timeout, crashed or error.
func short(status string) string {
	if status == "timeout" || status == "crashed" {
		return status
	}
	return "error"
}

func pageErr(s string) string {
	if s == "" {
		return ""
	}
	return " (page: " + s + ")"
}

// runs are the tensorview runs of r: all of them, or the one kept.
func runs(r result) []*tvResult {
	if len(r.TensorviewRuns) > 0 {
		return r.TensorviewRuns
	}
	if r.Tensorview != nil {
		return []*tvResult{r.Tensorview}
	}
	return nil
}

func floorOf(t *tvResult) (float64, bool) { return t.FloorMs, t.FloorStatus == "" && t.FloorMs > 0 }

// ratioOf is a run's first previews over its own I/O floor.
func ratioOf(t *tvResult) (float64, bool) {
	if t.FirstStatus != "" || t.FloorStatus != "" || t.FloorMs <= 0 {
		return 0, false
	}
	return t.FirstMs / t.FloorMs, true
}

// floorCells are the I/O floor's cells of r: the median floor (range), and
// the median of each run's first previews / floor (range).
func floorCells(r result) (floor, ratio string) {
	all := runs(r)
	if len(all) == 0 {
		return "–", "–"
	}
	if m := median(all, floorOf); m != nil {
		if v, ok := floorOf(m); ok {
			floor = msf(v) + spread(all, floorOf)
		} else if m.FloorStatus != "" {
			floor = short(m.FloorStatus)
		}
	}
	if m := median(all, ratioOf); m != nil {
		if v, ok := ratioOf(m); ok {
			ratio = fmt.Sprintf("%.1f×", v)
			if lo, hi, n := bounds(all, ratioOf); n > 1 {
				ratio += fmt.Sprintf(" (%.1f–%.1f)", lo, hi)
			}
		}
	}
	if floor == "" {
		floor = "–" // not measured
	}
	if ratio == "" {
		ratio = "–"
	}
	return floor, ratio
}

// bounds is the least and greatest of the runs' good values, and how many there are.
func bounds[R any](runs []*R, value func(*R) (float64, bool)) (lo, hi float64, n int) {
	for _, r := range runs {
		if v, good := value(r); good {
			if n == 0 || v < lo {
				lo = v
			}
			if n == 0 || v > hi {
				hi = v
			}
			n++
		}
	}
	return lo, hi, n
}

// printMarks writes, when the build set performance marks (the perfmarks
// tag), the median time after the change event of each mark, per file and
// source, in the order the marks came.
func printMarks(w io.Writer, results []result) {
	any := false
	for _, r := range results {
		for _, t := range runs(r) {
			if len(t.Marks) > 0 {
				any = true
			}
		}
	}
	if !any {
		return
	}
	fmt.Fprint(w, "\nperformance marks (ms after the change event; median of the runs, [range]):\n\n")
	for _, r := range results {
		all := runs(r)
		names := map[string]float64{}
		for _, t := range all {
			for k, v := range t.Marks {
				if old, ok := names[k]; !ok || v < old {
					names[k] = v
				}
			}
		}
		if len(names) == 0 {
			continue
		}
		order := make([]string, 0, len(names))
		for k := range names {
			order = append(order, k)
		}
		sort.Slice(order, func(i, j int) bool {
			mi, _ := medianMark(marksOf(all), order[i])
			mj, _ := medianMark(marksOf(all), order[j])
			return mi < mj
		})
		var parts, main []string
		for _, k := range order {
			m, rng := medianMark(marksOf(all), k)
			if c, ok := strings.CutPrefix(k, "main:"); ok {
				main = append(main, fmt.Sprintf("%s %.0f%s", strings.TrimSuffix(c, "Duration"), m, rng))
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %.0f%s", strings.TrimPrefix(k, "tv:"), m, rng))
		}
		if len(main) > 0 {
			sort.Strings(main)
			parts = append(parts, "main thread ms (counts): "+strings.Join(main, ", "))
		}
		build := ""
		if r.Build != "" {
			build = " (" + r.Build + ")"
		}
		fmt.Fprintf(w, "- tensors-%s-%s%s by %s: %s\n", r.File.Size, r.File.Layout, build, r.Source, strings.Join(parts, ", "))
	}
}

// marksOf is the runs' marks.
func marksOf(all []*tvResult) []map[string]float64 {
	out := make([]map[string]float64, len(all))
	for i, t := range all {
		out[i] = t.Marks
	}
	return out
}

// medianMark is the median of the mark name over the runs' marks, and
// " [lo–hi]" when more than one has it.
func medianMark(marks []map[string]float64, name string) (float64, string) {
	var vs []float64
	for _, m := range marks {
		if v, ok := m[name]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, ""
	}
	sort.Float64s(vs)
	rng := ""
	if len(vs) > 1 {
		rng = fmt.Sprintf(" [%.0f–%.0f]", vs[0], vs[len(vs)-1])
	}
	return vs[(len(vs)-1)/2], rng
}
