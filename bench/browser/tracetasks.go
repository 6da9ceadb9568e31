package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// The query layout's traces (BENCH_TRACE): besides the trace file, the
// main thread's long tasks are listed in the log with the functions the
// V8 sampling profiler (disabled-by-default-v8.cpu_profiler, in the trace)
// saw most in each: wasm functions by name when the build keeps them
// (make static STRIP=), Go's garbage collector as runtime.gcDrain,
// runtime.gcBgMarkWorker, runtime.markroot and so on.

// profilerCategory adds V8's sampling profiler to a trace.
const profilerCategory = "disabled-by-default-v8.cpu_profiler"

// traceEvent is the part of a Trace Event Format event read here.
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`  // µs
	Dur  float64 `json:"dur"` // µs
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	// ID ties a profile's chunks (on the profiler's thread) to its
	// Profile event (on the thread sampled); other events' ids may be
	// numbers.
	ID   json.RawMessage `json:"id"`
	Args struct {
		Name string `json:"name"`
		Data struct {
			StartTime  float64 `json:"startTime"`
			CPUProfile struct {
				Nodes []struct {
					ID        int `json:"id"`
					Parent    int `json:"parent"`
					CallFrame struct {
						FunctionName string `json:"functionName"`
						URL          string `json:"url"`
					} `json:"callFrame"`
				} `json:"nodes"`
				Samples []int `json:"samples"`
			} `json:"cpuProfile"`
			TimeDeltas []float64 `json:"timeDeltas"`
		} `json:"data"`
	} `json:"args"`
}

// longTask is a task of the main thread over 50 ms and what ran in it.
type longTask struct {
	Start, Ms float64 // ms from the trace's first task
	// Counted: it started between the marks bench:opened and bench:done
	// (page.js queryScreen), as the table counts long tasks.
	Counted bool
	Top     []fnShare
}

type fnShare struct {
	Fn    string
	Share float64 // of the task's samples
	Self  bool    // self time (else: on the stack, inclusive)
}

// traceLongTasks reads a trace written by stopTrace and returns the main
// thread's tasks over 50 ms with the functions most sampled in each: the
// top self-time functions and the top Go functions on the stack
// (inclusive), n of each.
func traceLongTasks(path string, n int) ([]longTask, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tr struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, err
	}
	// The renderer's main thread.
	type thread struct{ pid, tid int }
	var main thread
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			main = thread{e.Pid, e.Tid}
		}
	}
	// The samples of the main thread's profile: time (µs, trace clock)
	// and stack (node ids up to the root).
	names := map[int]string{}
	parent := map[int]int{}
	type sample struct {
		ts   float64
		node int
	}
	var samples []sample
	// The main thread's profile: its Profile event is on the thread, its
	// chunks on the profiler's.
	var profile string
	var t float64
	for _, e := range tr.TraceEvents {
		if e.Name == "Profile" && e.Pid == main.pid && e.Tid == main.tid {
			profile, t = string(e.ID), e.Args.Data.StartTime
		}
	}
	for _, e := range tr.TraceEvents {
		if e.Name != "ProfileChunk" || e.Pid != main.pid || string(e.ID) != profile {
			continue
		}
		for _, nd := range e.Args.Data.CPUProfile.Nodes {
			names[nd.ID] = nd.CallFrame.FunctionName
			if nd.Parent != 0 {
				parent[nd.ID] = nd.Parent
			}
		}
		for i, s := range e.Args.Data.CPUProfile.Samples {
			if i < len(e.Args.Data.TimeDeltas) {
				t += e.Args.Data.TimeDeltas[i]
			}
			samples = append(samples, sample{t, s})
		}
	}
	slices.SortFunc(samples, func(a, b sample) int { return cmp.Compare(a.ts, b.ts) })
	// The marks page.js sets when the file opened and the query was done.
	opened, done := -1.0, -1.0
	for _, e := range tr.TraceEvents {
		switch {
		case e.Pid != main.pid:
		case e.Name == "bench:opened":
			opened = e.Ts
		case e.Name == "bench:done":
			done = e.Ts
		}
	}
	var t0 float64 = -1
	var out []longTask
	for _, e := range tr.TraceEvents {
		if e.Pid != main.pid || e.Tid != main.tid || e.Ph != "X" || (e.Name != "RunTask" && e.Name != "ThreadControllerImpl::RunTask") {
			continue
		}
		if t0 < 0 || e.Ts < t0 {
			t0 = e.Ts
		}
	}
	for _, e := range tr.TraceEvents {
		if e.Pid != main.pid || e.Tid != main.tid || e.Ph != "X" || e.Name != "RunTask" || e.Dur <= 50_000 {
			continue
		}
		lt := longTask{Start: (e.Ts - t0) / 1000, Ms: e.Dur / 1000, Counted: opened >= 0 && e.Ts >= opened && (done < 0 || e.Ts <= done)}
		self, incl := map[string]int{}, map[string]int{}
		total := 0
		i, _ := slices.BinarySearchFunc(samples, e.Ts, func(s sample, ts float64) int { return cmp.Compare(s.ts, ts) })
		for ; i < len(samples) && samples[i].ts <= e.Ts+e.Dur; i++ {
			total++
			node := samples[i].node
			self[names[node]]++
			seen := map[string]bool{}
			for id := node; id != 0; id = parent[id] {
				fn := names[id]
				if !seen[fn] && goFunc(fn) {
					seen[fn] = true
					incl[fn]++
				}
			}
		}
		lt.Top = append(top(self, total, n, true), top(incl, total, n, false)...)
		out = append(out, lt)
	}
	return out, nil
}

// goFunc tells whether fn is one of the wasm's Go functions worth naming
// as inclusive time (not the runtime's scheduler frames every stack has).
func goFunc(fn string) bool {
	if !strings.Contains(fn, ".") || strings.HasPrefix(fn, "wasm-function") {
		return false
	}
	switch fn {
	case "runtime.main", "runtime.goexit", "runtime.schedule", "runtime.mcall", "runtime.park_m",
		"runtime.gogo", "runtime.resume", "runtime.handleEvent", "runtime.wasmExit", "syscall/js.handleEvent":
		return false
	}
	return strings.Contains(fn, "/") || strings.HasPrefix(fn, "runtime.") || strings.HasPrefix(fn, "github.com")
}

func top(counts map[string]int, total, n int, self bool) []fnShare {
	var out []fnShare
	for fn, c := range counts {
		if fn == "" {
			fn = "(unnamed)"
		}
		out = append(out, fnShare{Fn: fn, Share: float64(c) / float64(max(total, 1)), Self: self})
	}
	slices.SortFunc(out, func(a, b fnShare) int {
		if c := cmp.Compare(b.Share, a.Share); c != 0 {
			return c
		}
		return strings.Compare(a.Fn, b.Fn)
	})
	return out[:min(n, len(out))]
}

// logLongTasks logs the long tasks of the trace at path.
func logLongTasks(path string) {
	tasks, err := traceLongTasks(path, 6)
	if err != nil {
		logf("  trace: %v", err)
		return
	}
	for _, lt := range tasks {
		var self, incl []string
		for _, f := range lt.Top {
			s := fmt.Sprintf("%s %.0f%%", f.Fn, 100*f.Share)
			if f.Self {
				self = append(self, s)
			} else {
				incl = append(incl, s)
			}
		}
		when := "before the file opened or after done"
		if lt.Counted {
			when = "counted"
		}
		logf("  long task at %.0f ms, %.0f ms (%s): self %s; on the stack %s", lt.Start, lt.Ms, when, strings.Join(self, ", "), strings.Join(incl, ", "))
	}
}
