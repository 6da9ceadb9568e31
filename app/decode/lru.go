package decode

import (
	"container/list"

	"github.com/apache/arrow-go/v18/arrow"
)

// lru caches decoded record batches by index within a byte budget, evicting
// the least recently used first. It never holds more than budget bytes,
// except for a single batch larger than the budget, which it then holds
// alone. Not safe for concurrent use: batchCache guards it.
type lru struct {
	budget, used int64
	order        *list.List // front: most recently used; values are *lruEntry
	byBatch      map[cacheKey]*list.Element
}

// cacheKey names a whole record batch (window -1) or one window of its rows.
// cacheKey names a row window in a cache: the record batch, the window
// of its rows (-1: the batch whole) and, in a cache its shards share
// (OpenDataset), the shard's file.
type cacheKey struct{ batch, window, file int }

type lruEntry struct {
	batch cacheKey
	c     *decoded
	size  int64
}

// decoded is a row window decoded (a record batch read whole, or a window
// of its rows) with what arrow-go's validation found wrong in each column
// ("" where nothing).
type decoded struct {
	rec    arrow.RecordBatch
	colErr []string
}

func newLRU(budget int64) lru {
	return lru{budget: budget, order: list.New(), byBatch: map[cacheKey]*list.Element{}}
}

func (c *lru) has(batch cacheKey) bool {
	_, ok := c.byBatch[batch]
	return ok
}

func (c *lru) get(batch cacheKey) (*decoded, bool) {
	e, ok := c.byBatch[batch]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).c, true
}

// put adds a batch, evicting others until it fits.
func (c *lru) put(batch cacheKey, ch *decoded, size int64) {
	if e, ok := c.byBatch[batch]; ok {
		c.used -= e.Value.(*lruEntry).size
		c.order.Remove(e)
		delete(c.byBatch, batch)
	}
	for c.order.Len() > 0 && c.used+size > c.budget {
		last := c.order.Back()
		ent := last.Value.(*lruEntry)
		c.order.Remove(last)
		delete(c.byBatch, ent.batch)
		c.used -= ent.size
	}
	c.byBatch[batch] = c.order.PushFront(&lruEntry{batch: batch, c: ch, size: size})
	c.used += size
}
