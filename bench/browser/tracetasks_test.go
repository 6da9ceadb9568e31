package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTraceLongTasks: a trace's main-thread tasks over 50 ms, with the
// functions the profiler sampled in each (its chunks on the profiler's
// thread, tied to the main thread's Profile event by id), and whether
// each is counted (between the marks bench:opened and bench:done).
func TestTraceLongTasks(t *testing.T) {
	const trace = `{"traceEvents": [
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "CrRendererMain"}},
{"ph": "M", "name": "thread_name", "pid": 1, "tid": 9, "args": {"name": "v8:ProfEvntProc"}},
{"ph": "P", "name": "Profile", "pid": 1, "tid": 1, "id": "0x1", "ts": 1000, "args": {"data": {"startTime": 1000}}},
{"ph": "P", "name": "Profile", "pid": 1, "tid": 5, "id": "0x2", "ts": 1000, "args": {"data": {"startTime": 1000}}},
{"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 9, "id": "0x1", "ts": 2000, "args": {"data": {
  "cpuProfile": {"nodes": [
    {"id": 1, "callFrame": {"functionName": "(root)"}},
    {"id": 2, "parent": 1, "callFrame": {"functionName": "runtime.gcBgMarkWorker"}},
    {"id": 3, "parent": 2, "callFrame": {"functionName": "runtime.gcDrain"}},
    {"id": 4, "parent": 1, "callFrame": {"functionName": "github.com_tensorview_tensorview_app_query.radixSort"}}],
   "samples": [3, 3, 3, 4, 4, 3]},
  "timeDeltas": [9000, 10000, 10000, 10000, 10000, 40000]}}},
{"ph": "P", "name": "ProfileChunk", "pid": 1, "tid": 9, "id": "0x2", "ts": 2000, "args": {"data": {
  "cpuProfile": {"nodes": [{"id": 1, "callFrame": {"functionName": "elsewhere"}}], "samples": [1]}, "timeDeltas": [10000]}}},
{"ph": "R", "name": "bench:opened", "pid": 1, "tid": 1, "ts": 5000, "id": 7},
{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": 5000, "dur": 50000},
{"ph": "X", "name": "RunTask", "pid": 1, "tid": 1, "ts": 80000, "dur": 60000},
{"ph": "X", "name": "RunTask", "pid": 2, "tid": 1, "ts": 80000, "dur": 90000}
]}`
	path := filepath.Join(t.TempDir(), "t.trace.json")
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks, err := traceLongTasks(path, 3)
	if err != nil {
		t.Fatal(err)
	}
	// Samples at 10, 20, 30 (gcDrain), 40, 50 (radixSort) and 90 ms
	// (gcDrain); only the task [80, 140) ms is over 50 ms.
	if len(tasks) != 1 || tasks[0].Start != 75 || tasks[0].Ms != 60 || !tasks[0].Counted {
		t.Fatalf("long tasks %+v, want one of 60 ms at 75 ms, counted", tasks)
	}
	top := tasks[0].Top
	if len(top) < 2 || top[0].Fn != "runtime.gcDrain" || top[0].Share != 1 || !top[0].Self {
		t.Errorf("self time %+v, want runtime.gcDrain 100%%", top)
	}
	var inclusive []string
	for _, f := range top {
		if !f.Self {
			inclusive = append(inclusive, f.Fn)
		}
	}
	if len(inclusive) != 2 || inclusive[0] != "runtime.gcBgMarkWorker" || inclusive[1] != "runtime.gcDrain" {
		t.Errorf("on the stack %v, want runtime.gcBgMarkWorker and runtime.gcDrain", inclusive)
	}
}
