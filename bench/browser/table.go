package main

import (
	"fmt"
	"io"
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
	fmt.Fprintln(w, "| file | layout | source | size MB | rows | batches | tv first previews ms | tv MB transferred (requests) | tv jump to last ms (row / preview) | tv frame max / p95 ms | tv peak wasm MB | tv cache MB / budget | arrow-js first row ms | arrow-js MB transferred | arrow-js MB (JS heap + ArrayBuffers) | arrow-js error | arrow-js / tv first row | renderer peak RSS MB (tv / arrow-js) |")
	fmt.Fprintln(w, "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
	var notes []string
	note := func(s string) int {
		notes = append(notes, s)
		return len(notes)
	}
	for _, r := range results {
		f := r.File
		name := "tensors-" + f.Size + "-" + f.Layout
		label := name
		if f.Note != "" {
			label += fmt.Sprintf(" [%d]", note(name+": "+f.Note))
		}
		if a := r.ArrowJS; a != nil && a.Reader != "" {
			label += fmt.Sprintf(" [%d]", note(name+": the arrow-js columns are "+a.Reader+" 0.8.0 reading the whole file (readParquet of all its bytes), then the first row through apache-arrow"))
		}
		cells := []string{label, f.Layout, r.Source, mbf(float64(f.Bytes)), fmt.Sprint(f.Rows), fmt.Sprint(f.Batches)}
		first, sent, jump, frames, wasm, cache := "", "–", "", "", "", ""
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
				frames = fmt.Sprintf("%.0f / %.0f", t.FrameMaxMs, t.FrameP95Ms)
			}
			wasm = mbf(t.WasmBytes)
			if t.CacheBytes != "" || t.CacheBudget != "" {
				cache = bytesMB(t.CacheBytes) + " / " + bytesMB(t.CacheBudget)
			} else {
				cache = "–"
			}
		}
		cells = append(cells, first, sent, jump, frames, wasm, cache)
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
