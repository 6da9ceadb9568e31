package decode

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
)

// The rest of a record batch read by small row windows (Options.RowWindow):
// by URL the first screen reads only its rows' bytes (a window), and the
// viewer then reads the rest of their record batch in the background
// (LoadBatchOf), so that scrolling on through it reads nothing more. The
// bytes its windows read are kept (bodyParts) and not read again: the
// batch's read asks the file only for the stretches between them.

// bodyParts keeps, per record batch (by the file offset of its message),
// the bytes of the file its exact row windows read, until the batch is
// read whole (take) or the parts of other batches need the room (the
// oldest batch's parts go first). Safe for concurrent use.
type bodyParts struct {
	mu    sync.Mutex
	m     map[int64][]segment // by batch offset: file offsets, sorted
	order []int64             // batch offsets, oldest first
	held  int64               // bytes in m
}

// add keeps segs, parts of the file (segment.off a file offset) read for
// the batch at offset batch, within limit bytes for all batches.
func (p *bodyParts) add(batch int64, segs []segment, limit int64) {
	var n int64
	for _, s := range segs {
		n += int64(len(s.b))
	}
	if n == 0 || n > limit {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.held+n > limit && len(p.order) > 0 {
		p.drop(p.order[0])
	}
	if p.m == nil {
		p.m = map[int64][]segment{}
	}
	if _, ok := p.m[batch]; !ok {
		p.order = append(p.order, batch)
	}
	all := append(p.m[batch], segs...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].off < all[j].off })
	p.m[batch] = all
	p.held += n
}

// get returns the parts kept for the batch at offset batch, by offset.
func (p *bodyParts) get(batch int64) []segment {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.m[batch]
}

// drop forgets the parts of the batch at offset batch (p.mu held).
func (p *bodyParts) drop(batch int64) {
	for _, s := range p.m[batch] {
		p.held -= int64(len(s.b))
	}
	delete(p.m, batch)
	for k, o := range p.order {
		if o == batch {
			p.order = append(p.order[:k], p.order[k+1:]...)
			break
		}
	}
}

// forget is drop under the lock: the batch was read whole.
func (p *bodyParts) forget(batch int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop(batch)
}

// partsReader reads through r, but the bytes parts hold (file offsets,
// sorted by offset) are copied from them: a read asks r only for the
// stretches between them. Parts under minPart bytes (a window's small
// columns: offsets, labels, a few KiB) are read again with the stretches
// around them: by URL a stretch that small between two parts would be a
// request of its own, or a 256 KiB block (app/remote).
type partsReader struct {
	r       io.ReaderAt
	parts   []segment
	minPart int64 // minPart (0 in tests: every part)
}

// minPart is the size from which partsReader takes a part's bytes rather
// than reading them again.
const minPart = 64 << 10

func (pr *partsReader) ReadAt(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	pos := off                    // what is before pos is in p
	gap := func(to int64) error { // reads [pos, to) through r
		if to <= pos {
			return nil
		}
		n, err := pr.r.ReadAt(p[pos-off:to-off], pos)
		if err == io.EOF && int64(n) == to-pos && to < end {
			err = nil // a part follows: the read stopped at the file's end only in name
		}
		pos += int64(n)
		return err
	}
	for _, s := range pr.parts { // by offset
		sEnd := s.off + int64(len(s.b))
		if sEnd <= pos || s.off >= end || int64(len(s.b)) < pr.minPart {
			continue
		}
		if err := gap(s.off); err != nil {
			return int(pos - off), err
		}
		pos += int64(copy(p[pos-off:], s.b[pos-s.off:min(sEnd, end)-s.off]))
	}
	if err := gap(end); err != nil {
		return int(pos - off), err
	}
	return len(p), nil
}

// LoadBatchOf reads and decodes the record batch holding row whole into
// the cache (LoadContext's row windows of it are served from it then),
// when its rows are read by small row windows (Options.RowWindow: a batch
// otherwise read whole): the bytes its windows have read are not read
// again (it waits for the loads of its windows under way first). It
// does nothing (nil) for a row not located yet or a batch read
// whole or by large windows anyway; its errors and ctx are LoadContext's.
// The viewer calls it for the rows on screen, once they are in: by URL
// the first screen reads only their bytes, and the rest of their batch
// comes in the background.
func (f *File) LoadBatchOf(ctx context.Context, row int64) (err error) {
	if f.set != nil {
		_, _, sf, local, ok := f.set.where(row)
		if !ok || sf == nil {
			return nil
		}
		return sf.LoadBatchOf(ctx, local)
	}
	defer guard(&err, "reading the record batch of row %d", row)
	key, _, b, ok := f.where(row)
	if !ok || key.window < 0 {
		return nil
	}
	w, small := f.windowRows(b)
	if !small {
		return nil
	}
	// Windows of the batch being read (the table's read-ahead) first:
	// their bytes are then not read again.
	for k := 0; int64(k)*w < b.rows; k++ {
		if err := f.cache.await(ctx, cacheKey{key.batch, k, f.cacheID}); err != nil {
			return err
		}
	}
	_, err = f.batch(ctx, key.batch)
	if err != nil {
		return fmt.Errorf("cannot read record batch %d: %w", key.batch, err)
	}
	return nil
}
