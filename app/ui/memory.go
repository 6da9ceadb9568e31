package ui

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// tuneGC sets the garbage collector for a page whose heap is mostly the
// decoded record batches of the cache (at most budget bytes) and the bytes
// being read. The default (GOGC=100 from a 4 MiB heap) collects several
// times while the first rows of a file are read — about 18 ms of the first
// 90 in a CPU profile of `make bench-browser` — although nearly everything
// read stays live. With GOGC=400 the collections come later; the soft
// memory limit of twice the budget plus 128 MiB (room for a record batch
// read whole next to a full cache: the bytes read and the batch decoded),
// at most 3 GiB of the 4 GiB a wasm memory can have, keeps the heap from
// aiming higher (GOGC=100 alone would let a full cache's heap aim at twice
// the budget, GOGC=400 at five times).
//
// And the heap may grow to half the budget (gcFloor) before a collection
// however little of it is live: while the cache fills, GOGC=400 alone
// collected every few tens of MB read (a live heap of 10 MB aims at 50),
// and in a browser a collection is one task of the main thread (Go's
// idle-time marking, the sweep and the finalizers of the JavaScript values
// freed) that came in the middle of a fling through a file: a frame of
// 50–100 ms (docs/benchmarks.md). The memory limit still bounds the heap.
func tuneGC(budget int64) {
	debug.SetMemoryLimit(min(2*budget+128<<20, 3<<30))
	floor := gcFloor(budget)
	// Before the first collection Go aims at 4 MiB × GOGC/100.
	debug.SetGCPercent(gcPercent(4<<20, floor))
	// The heap the last collection marked live (MemStats.HeapAlloc would
	// count the objects not swept yet too).
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	afterEachGC(func() {
		metrics.Read(live)
		if live[0].Value.Kind() == metrics.KindUint64 {
			debug.SetGCPercent(gcPercent(int64(live[0].Value.Uint64()), floor))
		}
	})
}

// gcFloor is the heap the collector lets grow before collecting however
// little of it is live: half the cache budget.
func gcFloor(budget int64) int64 { return budget / 2 }

// gcPercent is the GOGC that aims the next collection at floor bytes of
// heap after one that left live bytes live, and at no less than five times
// live (GOGC=400).
func gcPercent(live, floor int64) int {
	const least = 400
	if live <= 0 {
		return least
	}
	return int(min(max(least, (floor-live)*100/live), 1<<20))
}

// afterEachGC calls f on a goroutine of its own after each garbage
// collection, from the next one on: a sentinel object, unreachable as soon
// as it is made, runs a cleanup that makes the next sentinel, then calls f
// (in that order: a collection f's caller starts once f has run finds the
// next sentinel to free).
func afterEachGC(f func()) {
	type sentinel struct {
		p *int // with a pointer and 16 bytes: not a tiny allocation, freed each cycle
		_ uintptr
	}
	var arm func()
	arm = func() {
		s := &sentinel{}
		runtime.AddCleanup(s, func(struct{}) {
			arm()
			f()
		}, struct{}{})
	}
	arm()
}
