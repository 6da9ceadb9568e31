package app

import "runtime/debug"

// tuneGC sets the garbage collector for a page whose heap is mostly the
// decoded record batches of the cache (at most budget bytes) and the bytes
// being read. The default (GOGC=100 from a 4 MiB heap) collects several
// times while the first rows of a file are read — about 18 ms of the first
// 90 in a CPU profile of `make bench-browser` — although nearly everything
// read stays live. With GOGC=400 and a soft memory limit of the budget plus
// 128 MiB, the first collections come later and the heap still never aims
// above the limit (GOGC=100 alone would let a full cache's heap aim at
// twice the budget).
func tuneGC(budget int64) {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(budget + 128<<20)
}
