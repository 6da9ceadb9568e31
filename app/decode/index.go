package decode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// eagerHeaders is how many record batch headers Open reads before it
// returns (for streams, how many batches it scans); the rest are read by
// Index or on demand, and row counts are estimated until then from the
// batches' byte lengths. Every read of a browser File costs about a
// millisecond, so this is small: time to first rows must not grow with the
// number of batches.
const eagerHeaders = 1

// batchInfo locates one record batch.
type batchInfo struct {
	offset int64 // of the message prefix
	length int64 // prefix + metadata + body
	// metaLen is the length of prefix and metadata an IPC file's footer
	// gives (arrow-go finds the body after it); 0 for streams.
	metaLen int64
	rows    int64 // -1 until its header is read
	start   int64 // global index of its first row (estimated while rows of earlier batches are unknown)
	dicts   int   // how many dictionary messages precede it (streams)
	whole   bool  // read it whole even if large (its layout has no row windows)
	// compressed is set for IPC files when its header, read, says its body
	// is compressed.
	compressed bool
	// stored is, for a Parquet row group, its compressed bytes: what is
	// read of the file to read it whole (length is then the estimate of
	// its decoded bytes, which sizes its windows).
	stored int64
}

// Row windows: a batch is read by windows of rows when it is larger than
// wholeBatchMax or a quarter of the cache budget; a window holds about
// windowBytes or an eighth of the budget, whichever is smaller. Small
// windows put the first rows on screen quickly (a 38 MiB batch of 224×224×3
// images is a 1.2 MB read for its first 8 rows instead of 38 MiB).
const (
	wholeBatchMax = 16 << 20
	windowBytes   = 2 << 20
)

// windowRows returns how many rows of the batch a window holds under a
// cache budget of budget bytes, in multiples of 8, or 0 when the batch is
// read whole.
func (b batchInfo) windowRows(budget int64) int64 {
	if b.whole || b.rows <= 0 || b.length <= min(wholeBatchMax, budget/4) {
		return 0
	}
	perRow := max(1, b.length/b.rows)
	w := max(8, (min(windowBytes, budget/8)/perRow)/8*8)
	if w >= b.rows {
		return 0
	}
	return w
}

// ipcIndex is the index of an IPC file or stream: its schema, where its
// record batches (and, in a stream, its dictionary batches) are, and how
// many rows each batch has, read from the IPC file format's footer and the
// messages' metadata or by scanning a stream message by message. Row
// counts not read yet are estimated from the batches' byte lengths. It
// decodes no record batch.
//
// Its methods are safe for concurrent use: the fields set while opening
// are read-only afterwards, the batch list is guarded by mu and never held
// during a read, and a stream is scanned by one goroutine at a time.
type ipcIndex struct {
	r      io.ReaderAt // the file, through the meter and the ends cache
	size   int64
	budget int64            // the cache budget, which bounds what the index reads and holds
	small  int64            // Options.SmallFile
	warn   func(msg string) // reports what does not stop reading (a stream that breaks)

	// Set while opening, read-only afterwards.
	format    Format
	schema    *arrow.Schema
	schemaMsg []byte                   // IPC streams: the schema message
	dictTypes map[int64]arrow.DataType // value type of each dictionary id
	dicts     []fileDict               // IPC files: the dictionary batches, in footer order

	scan sync.Mutex // held while a stream's next message is scanned: in file order, once

	mu        sync.Mutex
	batches   []batchInfo
	dictMsgs  [][]byte       // IPC streams: dictionary batch messages, in order
	dictBytes int64          // IPC streams: their total length
	dictSeen  map[int64]bool // the dictionary ids read so far (in file order)
	scanned   int64          // streams: bytes indexed so far
	indexed   bool           // every batch is known with its row count
	numRows   int64          // with estimates for unknown batches
	// reading holds, for each IPC file batch whose header is being read,
	// a channel closed when that read ends: concurrent readers of one
	// header (Index, a scan, the grid) wait for the first.
	reading map[int]chan struct{}
	// moved: a header read since the batches were last placed; find
	// places them again before it locates a row (a scan reading headers
	// one by one does not place every batch after each).
	moved bool
}

// fileDict is a dictionary batch of an IPC file: its block and the id of
// its dictionary.
type fileDict struct {
	block block
	id    int64
}

// open reads the schema and locates the first record batches: eagerHeaders
// of them, or every one in a file of at most small bytes.
func (x *ipcIndex) open() error {
	var err error
	switch x.format {
	case IPCFile:
		err = x.openFile()
	case IPCStream:
		err = x.openTensor()
		if errors.Is(err, errNotTensorMessage) {
			err = x.openStream()
		}
	}
	if err == nil && x.schema == nil {
		err = x.readSchema()
	}
	return err
}

// maxBatches is how many record batches a file may have: their index
// (64 bytes a batch) must fit the cache budget.
func (x *ipcIndex) maxBatches() int64 { return max(1024, x.budget/64) }

// place recomputes batch starts and the row total; unknown row counts are
// estimated from the bytes of the known ones. Call with x.mu held.
func (x *ipcIndex) place() {
	var knownRows, knownBytes int64
	for _, b := range x.batches {
		if b.rows >= 0 {
			knownRows += b.rows
			knownBytes += b.length
		}
	}
	perByte := 0.0
	if knownBytes > 0 {
		perByte = float64(knownRows) / float64(knownBytes)
	}
	var n int64
	exact := true
	for i := range x.batches {
		x.batches[i].start = n
		r := x.batches[i].rows
		if r < 0 {
			r = int64(float64(x.batches[i].length)*perByte + 0.5)
			exact = false
		}
		n += r
	}
	if x.format == IPCStream && x.scanned < x.size && !x.indexed {
		n += int64(float64(x.size-x.scanned)*perByte + 0.5) // the stream not yet scanned
		exact = false
	}
	x.numRows = n
	x.moved = false
	if exact && x.format == IPCFile {
		x.indexed = true
	}
}

// replace is place with the lock.
func (x *ipcIndex) replace() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.place()
}

// rows returns the number of rows (estimated for the batches whose header
// is unread) and whether it is exact.
func (x *ipcIndex) rows() (n int64, exact bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.numRows, x.indexed
}

// numBatches returns the number of record batches located so far.
func (x *ipcIndex) numBatches() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return len(x.batches)
}

// isIndexed reports whether every record batch and its row count is known.
func (x *ipcIndex) isIndexed() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.indexed
}

// batchAt returns what is known of record batch i and, for a stream, the
// dictionary batch messages before it; ok is false when there is no batch
// i (yet).
func (x *ipcIndex) batchAt(i int) (b batchInfo, dicts [][]byte, ok bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if i < 0 || i >= len(x.batches) {
		return b, nil, false
	}
	b = x.batches[i]
	return b, x.dictMsgs[:b.dicts], true
}

// readHeader reads the row count of batch i (files), verifying its
// metadata (see checkBlock). One read at a time per batch: a second caller
// waits for the first and, if it failed, tries again.
func (x *ipcIndex) readHeader(i int) error {
	for {
		x.mu.Lock()
		b := x.batches[i]
		if b.rows >= 0 {
			x.mu.Unlock()
			return nil
		}
		if wait, ok := x.reading[i]; ok {
			x.mu.Unlock()
			<-wait
			continue
		}
		if x.reading == nil {
			x.reading = map[int]chan struct{}{}
		}
		done := make(chan struct{})
		x.reading[i] = done
		x.mu.Unlock()

		info, err := x.readBlock(b.block(), msgRecordBatch)
		if err == nil {
			x.header(i, info)
		}
		x.mu.Lock()
		delete(x.reading, i)
		x.mu.Unlock()
		close(done)
		if err != nil {
			return fmt.Errorf("cannot read record batch %d (offset %d): %w", i, b.offset, err)
		}
		return nil
	}
}

// headerReaders is how many record batch headers of an IPC file Index
// reads at once. Each is a read of a few hundred bytes, and by URL a
// request of its own: browsers run six requests to an origin at a time
// over HTTP/1.1, and a file of 150 batches was indexed in 1.5 s one header
// after another by URL.
const headerReaders = 6

// readHeaders reads the headers of the IPC file batches from, from+1, …,
// n-1 that are unread, headerReaders at a time, calling progress (when not
// nil) with the offset reached from one goroutine at a time. It returns
// the error of the first batch (in file order) whose header cannot be read,
// or ctx's error; the headers read before it stay known.
func (x *ipcIndex) readHeaders(ctx context.Context, from, n int, progress func(at int64)) error {
	var (
		mu      sync.Mutex
		next    = from
		failed  = n // the first batch whose header failed
		failErr error
		reached int64
		wg      sync.WaitGroup
	)
	take := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= n || next > failed || ctx.Err() != nil {
			return 0, false
		}
		next++
		return next - 1, true
	}
	for range min(headerReaders, max(0, n-from)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, ok := take()
				if !ok {
					return
				}
				err := x.readHeader(i)
				if (i-from)%256 == 255 {
					x.replace() // the row count's estimate, as the index goes
				}
				mu.Lock()
				if err != nil && i < failed {
					failed, failErr = i, err
				}
				if err == nil && progress != nil && (i-from)%64 == 0 {
					if at := x.batchOffset(i); at > reached {
						reached = at
						progress(at)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return failErr
}

// block is where an IPC file's record batch b lies, as its footer says.
func (b batchInfo) block() block {
	return block{offset: b.offset, metaLen: b.metaLen, bodyLen: b.length - b.metaLen}
}

// header records what the header of file batch i says (info, read and
// checked by readBlock) when its row count is unknown; the batches are
// placed again before a row is next located (find).
func (x *ipcIndex) header(i int, info messageInfo) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.batches[i].rows >= 0 {
		return
	}
	x.batches[i].rows = info.rows
	x.batches[i].compressed = info.compressed
	x.moved = true
}

// counted records the row count of batch i found by decoding it, when its
// header was not read, and places the batches again.
func (x *ipcIndex) counted(i int, rows int64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.batches[i].rows < 0 {
		x.batches[i].rows = rows
		x.place()
	}
}

// wholeOnly marks batch i as read whole: its layout has no row windows.
func (x *ipcIndex) wholeOnly(i int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.batches[i].whole = true
}

// locate returns the batch holding global row and the row's index in it,
// reading the header of a batch whose row count is unknown; ok is false
// when row is out of range or in a part not yet indexed.
func (x *ipcIndex) locate(row int64) (batch, local int, ok bool) {
	for tries := 0; tries < 8; tries++ {
		i, b := x.find(row)
		if i < 0 {
			return 0, 0, false
		}
		if b.rows < 0 {
			// Unknown: read its header (a few hundred bytes) and look
			// again.
			if err := x.readHeader(i); err != nil {
				return 0, 0, false
			}
			continue // find places the batches again
		}
		if row-b.start >= b.rows {
			return 0, 0, false
		}
		return i, int(row - b.start), true
	}
	return 0, 0, false
}

// find returns the batch whose (maybe estimated) rows start at or before
// row, and its index; -1 when there is none.
func (x *ipcIndex) find(row int64) (int, batchInfo) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.moved {
		x.place()
	}
	if row < 0 || len(x.batches) == 0 {
		return -1, batchInfo{}
	}
	i := sort.Search(len(x.batches), func(i int) bool { return x.batches[i].start > row }) - 1
	if i < 0 {
		return -1, batchInfo{}
	}
	return i, x.batches[i]
}

// index reads the record batch headers open did not (files) or scans the
// rest of the stream, calling progress(bytesDone, bytesTotal) as it goes,
// until done or ctx is cancelled.
func (x *ipcIndex) index(ctx context.Context, progress func(done, total int64)) error {
	defer x.replace() // place what was found, however index ends
	if x.format == IPCFile {
		var at func(int64)
		if progress != nil {
			at = func(off int64) { progress(off, x.size) }
		}
		if err := x.readHeaders(ctx, 0, x.numBatches(), at); err != nil {
			return err
		}
	}
	for i := 0; x.format == IPCStream; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		x.mu.Lock()
		done := x.indexed
		x.mu.Unlock()
		if done {
			break
		}
		if err := x.scanNext(); err != nil {
			return err
		}
		if progress != nil && i%64 == 0 {
			progress(x.scannedBytes(), x.size)
		}
		if i%256 == 0 {
			x.replace()
		}
	}
	x.mu.Lock()
	x.place()
	x.indexed = true
	x.mu.Unlock()
	if progress != nil {
		progress(x.size, x.size)
	}
	return nil
}

// batchOffset returns where batch i starts.
func (x *ipcIndex) batchOffset(i int) int64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.batches[i].offset
}

// scannedBytes returns how far a stream is scanned.
func (x *ipcIndex) scannedBytes() int64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.scanned
}
