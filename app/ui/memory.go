package ui

import "runtime/debug"

// tuneGC sets the garbage collector for a page whose heap is mostly the
// decoded record batches of the cache (at most budget bytes) and the bytes
// being read. The default (GOGC=100 from a 4 MiB heap) collects several
// times while the first rows of a file are read — about 18 ms of the first
// 90 in a CPU profile of `make bench-browser` — although nearly everything
// read stays live. With GOGC=400 the first collections come later; the soft
// memory limit of twice the budget plus 128 MiB (room for a record batch
// read whole next to a full cache: the bytes read and the batch decoded),
// at most 3 GiB of the 4 GiB a wasm memory can have, keeps the heap from
// aiming higher (GOGC=100 alone would let a full cache's heap aim at twice
// the budget, GOGC=400 at five times).
func tuneGC(budget int64) {
	debug.SetGCPercent(400)
	debug.SetMemoryLimit(min(2*budget+128<<20, 3<<30))
}
