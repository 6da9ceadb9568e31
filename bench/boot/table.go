//go:build !wasm

package main

import (
	"fmt"
	"io"
	"slices"
)

// stat is the median, minimum and maximum of some milliseconds.
type stat struct {
	n                int
	median, min, max float64
}

// summarize returns the statistics of xs, ignoring zeros (not reported);
// the median of an even count is the mean of the middle two.
func summarize(xs []float64) stat {
	var v []float64
	for _, x := range xs {
		if x > 0 {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return stat{}
	}
	slices.Sort(v)
	m := v[len(v)/2]
	if len(v)%2 == 0 {
		m = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return stat{n: len(v), median: m, min: v[0], max: v[len(v)-1]}
}

func (s stat) String() string {
	if s.n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", s.median, s.min, s.max)
}

// printTable writes one Markdown row per load kind and figure, A and B side
// by side with B's median as a share of A's.
func printTable(w io.Writer, c config, loads []load) {
	a, b := c.builds[0].name, c.builds[1].name
	fmt.Fprintf(w, "| load | figure | %s (A) | %s (B) | B/A |\n|---|---|---|---|---|\n", a, b)
	kinds := []string{"cold"}
	for i := 1; i <= c.warm; i++ {
		kinds = append(kinds, fmt.Sprintf("warm%d", i))
	}
	figures := []struct {
		name string
		get  func(load) float64
	}{
		{`data-state="empty" painted`, func(l load) float64 { return l.Painted }},
		{`wasm ready (data-ready)`, func(l load) float64 { return l.Ready }},
		{`data-state="empty" in the DOM`, func(l load) float64 { return l.Empty }},
		{"first contentful paint", func(l load) float64 { return l.FCP }},
		{"app.wasm fetched", func(l load) float64 { return l.WasmEnd }},
		{"wasm instantiated", func(l load) float64 { return l.Instantiated }},
	}
	for _, k := range kinds {
		for _, f := range figures {
			var xa, xb []float64
			for _, l := range loads {
				if l.Kind != k {
					continue
				}
				switch l.Build {
				case a:
					xa = append(xa, f.get(l))
				case b:
					xb = append(xb, f.get(l))
				}
			}
			sa, sb := summarize(xa), summarize(xb)
			ratio := "–"
			if sa.n > 0 && sb.n > 0 {
				ratio = fmt.Sprintf("%.2f", sb.median/sa.median)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", k, f.name, sa, sb, ratio)
		}
	}
}
