package grid

import "sync"

// maxDecoding is how many image thumbnails the browser decodes at once.
// Measured with make bench-browser BENCH_LAYOUTS=jpeg4k (a column of
// 3840×2160 JPEGs, 3 runs each): no limit, frames up to 500 ms while
// scrolling and 1.25–1.64 s to the first thumbnail; 2, 217–233 ms and
// 1.08–1.13 s; 1, 150–217 ms and 0.88 s.
const maxDecoding = 1

// thumbQueue is the table's decoding budget for image thumbnails: at most
// maxDecoding decodes run at once and the rest wait their turn, first
// come first served; a thumbnail whose row left the view before its turn
// is skipped. Scrolling through a column of large photos then asks the
// browser for the rows in view, not for every row passed over.
type thumbQueue struct {
	mu      sync.Mutex
	running int
	waiting []thumbJob
	idle    []func() // run once no decode runs or waits (afterIdle)
}

// afterIdle calls fn once no decode runs or waits: now when none does,
// else when the last ends (on the page's thread). A nil queue calls it
// now. The rows table reads the rest of the record batches on screen
// after their thumbnails (readRest).
func (q *thumbQueue) afterIdle(fn func()) {
	if q != nil {
		q.mu.Lock()
		if q.running > 0 || len(q.waiting) > 0 {
			q.idle = append(q.idle, fn)
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
	}
	fn()
}

// thumbJob is a decode waiting its turn: wanted reports whether it is
// still needed; start begins it and calls done when it ends.
type thumbJob struct {
	wanted func() bool
	start  func(done func())
}

// run starts the job now when the budget allows, else queues it. A nil
// queue runs every job at once.
func (q *thumbQueue) run(wanted func() bool, start func(done func())) {
	if q == nil {
		start(func() {})
		return
	}
	q.mu.Lock()
	q.waiting = append(q.waiting, thumbJob{wanted, start})
	q.mu.Unlock()
	q.next()
}

// next starts waiting jobs while the budget allows, dropping unwanted ones.
func (q *thumbQueue) next() {
	for {
		q.mu.Lock()
		if q.running >= maxDecoding || len(q.waiting) == 0 {
			var idle []func()
			if q.running == 0 && len(q.waiting) == 0 {
				idle, q.idle = q.idle, nil
			}
			q.mu.Unlock()
			for _, fn := range idle {
				fn()
			}
			return
		}
		j := q.waiting[0]
		q.waiting = q.waiting[1:]
		if !j.wanted() {
			q.mu.Unlock()
			continue
		}
		q.running++
		q.mu.Unlock()
		var once sync.Once
		j.start(func() {
			once.Do(func() {
				q.mu.Lock()
				q.running--
				q.mu.Unlock()
				q.next()
			})
		})
	}
}
