package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// DefaultBudget is the default cache budget: the bytes of decoded record
// batches kept in memory.
const DefaultBudget = 256 << 20

// endsChunk is how much of the start and of the end of a file Open reads
// and keeps.
const endsChunk = 64 << 10

// ends serves reads that fall in the cached first and last bytes of a file.
type ends struct {
	r          io.ReaderAt
	head, tail []byte
	tailOff    int64
}

func newEnds(r io.ReaderAt, size int64, chunk int64) (*ends, error) {
	e := &ends{r: r, head: make([]byte, min(size, chunk))}
	if err := readFull(r, e.head, 0); err != nil {
		return nil, err
	}
	e.tailOff = max(0, size-chunk)
	if e.tailOff < int64(len(e.head)) { // small file: the head is all of it
		e.tail, e.tailOff = e.head, 0
		return e, nil
	}
	e.tail = make([]byte, size-e.tailOff)
	if err := readFull(r, e.tail, e.tailOff); err != nil {
		return nil, err
	}
	return e, nil
}

// with returns the same cache over another reader of the same file.
func (e *ends) with(r io.ReaderAt) *ends {
	c := *e
	c.r = r
	return &c
}

// ReadAt implements io.ReaderAt.
func (e *ends) ReadAt(p []byte, off int64) (int, error) {
	end := off + int64(len(p))
	switch {
	case off >= 0 && end <= int64(len(e.head)):
		return copy(p, e.head[off:end]), nil
	case off >= e.tailOff && end <= e.tailOff+int64(len(e.tail)):
		return copy(p, e.tail[off-e.tailOff:end-e.tailOff]), nil
	}
	return e.r.ReadAt(p, off)
}

// eagerHeaders is how many record batch headers Open reads before it
// returns (for streams, how many batches it scans); the rest are read by
// Index or on demand, and row counts are estimated until then from the
// batches' byte lengths. Every read of a browser File costs about a
// millisecond, so this is small: time to first rows must not grow with the
// number of batches.
const eagerHeaders = 1

// DefaultSmallFile is the size up to which Open indexes every batch at once.
const DefaultSmallFile = 16 << 20

// Options tune OpenReader.
type Options struct {
	// Budget is the cache budget in bytes (DefaultBudget when 0).
	Budget int64
	// SmallFile is the size up to which Open reads the header of every
	// record batch, so the row count is exact at once (DefaultSmallFile when
	// 0; negative: never).
	SmallFile int64
}

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
}

// File is an opened Arrow IPC file or stream: its schema, where its record
// batches are, and a cache of the decoded ones. Rows are numbered globally
// across batches. Its methods are safe for concurrent use.
type File struct {
	Name     string
	Size     int64
	Format   Format
	Schema   *arrow.Schema
	Metadata []KV // schema-level custom metadata
	Fields   []Field
	Warnings []string

	r         io.ReaderAt // the reader passed in, through meter and the ends cache
	meter     *meter
	ends      *ends
	fr        *ipc.FileReader          // IPC files: arrow-go reads schema, dictionaries and batches
	schemaMsg []byte                   // IPC streams: the schema message
	dictMsgs  [][]byte                 // IPC streams: dictionary batch messages, in order
	dictBytes int64                    // IPC streams: their total length
	dictTypes map[int64]arrow.DataType // value type of each dictionary id
	dictSeen  map[int64]bool           // the dictionary ids read so far (in file order)

	mu      sync.Mutex
	batches []batchInfo
	scanned int64 // streams: bytes indexed so far
	indexed bool  // every batch is known with its row count
	numRows int64 // with estimates for unknown batches
	cache   lru
	// windowReads counts the row windows read from large batches.
	windowReads int
	small       int64 // Options.SmallFile
}

// OpenReader opens the Arrow IPC file or stream of size bytes read through
// r. It reads the schema and locates the record batches (row counts of the
// first eagerHeaders batches; Index reads the rest) but decodes no batch. A
// file that cannot be opened returns an error that says why.
func OpenReader(name string, r io.ReaderAt, size int64, opt Options) (f *File, err error) {
	defer guard(&err, "reading %s", name)
	// Open needs the start (magic, schema, the first batch's header) and
	// the end (footer) of the file: two reads, kept for everything that
	// asks for those bytes again (arrow-go's file reader among others).
	m := &meter{r: r}
	e, err := newEnds(m, size, endsChunk)
	if err != nil {
		return nil, err
	}
	r = e
	head := make([]byte, min(size, 16))
	if err := readFull(r, head, 0); err != nil {
		return nil, err
	}
	format, err := Sniff(head)
	if err != nil {
		return nil, err
	}
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	small := opt.SmallFile
	if small == 0 {
		small = DefaultSmallFile
	}
	f = &File{Name: name, Size: size, Format: format, r: r, meter: m, ends: e, cache: newLRU(budget), small: small}
	switch format {
	case IPCFile:
		err = f.openFile()
	case IPCStream:
		err = f.openTensor()
		if errors.Is(err, errNotTensorMessage) {
			err = f.openStream()
		}
	}
	if err != nil {
		return nil, err
	}
	if f.Schema == nil {
		if err := f.readSchema(); err != nil {
			return nil, err
		}
	}
	f.describe()
	return f, nil
}

// readMessage reads the whole encapsulated message at off: prefix,
// metadata and body. end is the offset after it; eos reports the
// end-of-stream marker.
func (f *File) readMessage(off int64) (msg []byte, info messageInfo, eos bool, err error) {
	if off+4 > f.Size {
		return nil, info, true, nil // a stream may end without a marker
	}
	// One read usually covers prefix and metadata (a few hundred bytes).
	pre := make([]byte, min(2048, f.Size-off))
	if err := readFull(f.r, pre, off); err != nil {
		return nil, info, false, err
	}
	plen, size, err := messagePrefix(pre)
	if err != nil {
		return nil, info, false, err
	}
	if size == 0 {
		return nil, info, true, nil
	}
	if size < 0 || off+int64(plen)+size > f.Size {
		return nil, info, false, fmt.Errorf("IPC message at offset %d claims %d bytes of metadata, past the end of the file", off, size)
	}
	if size > maxMetadata {
		return nil, info, false, fmt.Errorf("IPC message at offset %d claims %s of metadata; tensorview reads at most %s (%w)", off, HumanBytes(size), HumanBytes(maxMetadata), ErrTooLarge)
	}
	meta := pre
	if int64(len(pre)) >= int64(plen)+size {
		meta = pre[:int64(plen)+size]
	} else {
		meta = make([]byte, int64(plen)+size)
		if err := readFull(f.r, meta, off); err != nil {
			return nil, info, false, err
		}
	}
	if info, err = parseMessage(meta[plen:]); err != nil {
		return nil, info, false, fmt.Errorf("IPC message at offset %d: %w", off, err)
	}
	total := int64(len(meta)) + info.bodyLen
	if off+total > f.Size {
		return nil, info, false, fmt.Errorf("IPC message at offset %d has a %d-byte body that runs past the end of the file", off, info.bodyLen)
	}
	return meta, info, false, nil
}

// readWhole reads the message at off with its body.
func (f *File) readWhole(off int64) ([]byte, messageInfo, error) {
	meta, info, eos, err := f.readMessage(off)
	if err != nil || eos {
		if err == nil {
			err = fmt.Errorf("no IPC message at offset %d", off)
		}
		return nil, info, err
	}
	if err := checkSize(fmt.Sprintf("the IPC message at offset %d", off), int64(len(meta))+info.bodyLen, f.cache.budget, f.Size); err != nil {
		return nil, info, err
	}
	msg := make([]byte, int64(len(meta))+info.bodyLen)
	copy(msg, meta)
	if err := readFull(f.r, msg[len(meta):], off+int64(len(meta))); err != nil {
		return nil, info, err
	}
	return msg, info, nil
}

// openFile reads the footer of an IPC file.
func (f *File) openFile() error {
	const magic = "ARROW1"
	if f.Size < 8+10 {
		return errors.New("cannot read the Arrow IPC file: it is too short to hold a footer")
	}
	tail := make([]byte, 10)
	if err := readFull(f.r, tail, f.Size-10); err != nil {
		return err
	}
	if string(tail[4:]) != magic {
		return errors.New("cannot read the Arrow IPC file: it does not end with the ARROW1 magic (is it truncated?)")
	}
	flen := int64(int32(uint32(tail[0]) | uint32(tail[1])<<8 | uint32(tail[2])<<16 | uint32(tail[3])<<24))
	if flen <= 0 || flen > f.Size-18 {
		return fmt.Errorf("cannot read the Arrow IPC file: footer length %d does not fit the file", flen)
	}
	if flen > maxMetadata {
		return fmt.Errorf("cannot read the Arrow IPC file: its footer claims %s; tensorview reads at most %s (%w)", HumanBytes(flen), HumanBytes(maxMetadata), ErrTooLarge)
	}
	footer := make([]byte, flen)
	if err := readFull(f.r, footer, f.Size-10-flen); err != nil {
		return err
	}
	dictBlocks, blocks, err := parseFooter(footer)
	if err != nil {
		return fmt.Errorf("cannot read the Arrow IPC file footer: %w", err)
	}
	// arrow-go reads the schema from the footer (some writers, apache-arrow
	// JS among them, put no schema message after the magic) and decodes the
	// batches; this package only locates and counts them.
	// A body cannot be larger than the file: that bounds allocations from
	// corrupt lengths without arrow-go's default 256 MiB cap on batches.
	// arrow-go's FileReader reads the dictionaries as it opens: first open
	// one over a footer that lists none, for the schema, then check the
	// dictionaries against their value types, as readHeader checks a
	// record batch.
	footerAt := f.Size - 10 - flen
	noDicts, err := footerWithoutDictionaries(footer)
	if err != nil {
		return fmt.Errorf("cannot read the Arrow IPC file footer: %w", err)
	}
	fr, err := ipc.NewFileReader(io.NewSectionReader(&overlay{r: f.r, off: footerAt, b: noDicts}, 0, f.Size),
		ipc.WithBodySizeLimit(f.Size), ipc.WithMetadataSizeLimit(maxMetadata))
	if err != nil {
		return arrowErr("cannot read the Arrow IPC file", err)
	}
	f.Schema = fr.Schema()
	fr.Close()
	if f.dictTypes, err = dictValueTypes(footer, f.Schema); err != nil {
		return fmt.Errorf("cannot read the Arrow IPC file: %w", err)
	}
	var dictBytes int64
	for k, b := range dictBlocks {
		if dictBytes += b.metaLen + b.bodyLen; dictBytes > f.cache.budget || b.metaLen+b.bodyLen < 0 {
			return fmt.Errorf("cannot read the Arrow IPC file: %w", &refusal{want: dictBytes, limit: f.cache.budget, size: f.Size, what: "its dictionaries", read: true})
		}
		if err := f.checkBlock(b, msgDictionaryBatch); err != nil {
			return fmt.Errorf("cannot read dictionary %d of the Arrow IPC file: %w", k, err)
		}
	}
	mem := newBudgetAllocator(f.cache.budget, f.Size, "the file's dictionaries")
	if f.fr, err = ipc.NewFileReader(io.NewSectionReader(f.r, 0, f.Size), ipc.WithBodySizeLimit(f.Size),
		ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem)); err != nil {
		if ref := mem.Err(); ref != nil {
			err = ref
		}
		return arrowErr("cannot read the Arrow IPC file", err)
	}
	if f.fr.NumRecords() != len(blocks) {
		return fmt.Errorf("cannot read the Arrow IPC file: footer lists %d record batches, arrow-go %d", len(blocks), f.fr.NumRecords())
	}
	for _, b := range blocks {
		if b.offset < 8 || b.metaLen <= 0 || b.bodyLen < 0 || b.offset+b.metaLen+b.bodyLen > f.Size || b.metaLen > maxMetadata {
			return fmt.Errorf("cannot read the Arrow IPC file: a record batch block (offset %d) lies outside the file", b.offset)
		}
		f.batches = append(f.batches, batchInfo{offset: b.offset, length: b.metaLen + b.bodyLen, metaLen: b.metaLen, rows: -1})
	}
	if n := int64(len(blocks)); n > f.maxBatches() {
		return fmt.Errorf("cannot read the Arrow IPC file: its footer lists %d record batches; with a cache budget of %s tensorview indexes at most %d (%w)",
			n, HumanBytes(f.cache.budget), f.maxBatches(), ErrTooLarge)
	}
	f.scanned = f.Size
	eager := eagerHeaders
	if f.Size <= f.small {
		eager = len(f.batches)
	}
	for i := range f.batches[:min(len(f.batches), eager)] {
		if err := f.readHeader(i); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.restart()
	f.mu.Unlock()
	return nil
}

func orMsg(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}

// readHeader reads the row count of batch i (files), verifying its
// metadata (see checkBlock).
func (f *File) readHeader(i int) error {
	f.mu.Lock()
	b := f.batches[i]
	f.mu.Unlock()
	if b.rows >= 0 {
		return nil
	}
	info, err := f.readBlock(block{offset: b.offset, metaLen: b.metaLen, bodyLen: b.length - b.metaLen}, msgRecordBatch)
	if err != nil {
		return fmt.Errorf("cannot read record batch %d (offset %d): %w", i, b.offset, err)
	}
	f.mu.Lock()
	f.batches[i].rows = info.rows
	f.batches[i].compressed = info.compressed
	f.mu.Unlock()
	return nil
}

// checkBlock verifies the message a block of an IPC file's footer points
// to, before arrow-go reads it: see readBlock.
func (f *File) checkBlock(b block, kind uint8) error {
	if b.offset < 8 || b.metaLen <= 0 || b.bodyLen < 0 || b.offset+b.metaLen+b.bodyLen > f.Size {
		return fmt.Errorf("its block (offset %d) lies outside the file", b.offset)
	}
	if _, err := f.readBlock(b, kind); err != nil || kind != msgDictionaryBatch {
		return err
	}
	// A dictionary's compressed buffers' sizes are in its body.
	msg := make([]byte, b.metaLen+b.bodyLen)
	if err := readFull(f.r, msg, b.offset); err != nil {
		return err
	}
	_, err := f.layout(msg[:b.metaLen], msg[b.metaLen:], messageInfo{kind: kind, bodyLen: b.bodyLen})
	return err
}

// readBlock reads and verifies the metadata of the message of an IPC file's
// block: a message of the kind wanted whose flatbuffer lies within the
// block's metadata (arrow-go reads the block's metaLen bytes) and whose body
// length is the block's.
func (f *File) readBlock(b block, kind uint8) (messageInfo, error) {
	meta, info, eos, err := f.readMessage(b.offset)
	if err == nil && (eos || info.kind != kind) {
		err = fmt.Errorf("not a %s message", kindName(kind))
	}
	if err == nil && int64(len(meta)) > b.metaLen {
		err = fmt.Errorf("its metadata (%d bytes) is longer than its block says (%d)", len(meta), b.metaLen)
	}
	if err == nil && info.bodyLen != b.bodyLen {
		err = fmt.Errorf("its body length (%d) is not its block's (%d)", info.bodyLen, b.bodyLen)
	}
	if err == nil {
		var l batchLayout
		l, err = f.layout(meta, nil, info)
		info.compressed = l.compressed
	}
	return info, err
}

// checkLayout checks the body layout of the record batch or dictionary
// batch message whose prefix and metadata are meta (see checkLayout).
func (f *File) checkLayout(meta []byte, info messageInfo) error {
	_, err := f.layout(meta, nil, info)
	return err
}

// checkWhole checks the body layout of a whole record batch or dictionary
// batch message (prefix, metadata and body), the decoded sizes of
// compressed buffers included.
func (f *File) checkWhole(msg []byte, kind uint8) error {
	plen, size, err := messagePrefix(msg)
	if err != nil {
		return err
	}
	if size < 0 || int64(plen)+size > int64(len(msg)) {
		return errors.New("truncated message")
	}
	meta, body := msg[:int64(plen)+size], msg[int64(plen)+size:]
	_, err = f.layout(meta, body, messageInfo{kind: kind, bodyLen: int64(len(body))})
	return err
}

// layout parses and checks the body layout of the record batch or
// dictionary batch message whose prefix and metadata are meta; body is the
// message's body, or nil (see checkLayout).
func (f *File) layout(meta, body []byte, info messageInfo) (batchLayout, error) {
	plen, size, err := messagePrefix(meta)
	if err != nil {
		return batchLayout{}, err
	}
	if int64(plen)+size > int64(len(meta)) || size < 0 {
		return batchLayout{}, errors.New("truncated message")
	}
	l, err := parseBatchLayout(meta[plen : int64(plen)+size])
	if err != nil {
		return l, err
	}
	var types []arrow.DataType
	if l.legacy && info.kind == msgDictionaryBatch {
		return l, fmt.Errorf("a dictionary batch compressed the Arrow 0.17 way (%s), which tensorview does not read", legacyKey)
	}
	if info.kind == msgDictionaryBatch {
		t, ok := f.dictTypes[l.dictID]
		if !ok {
			return l, fmt.Errorf("a dictionary batch for id %d, which no field of the schema has", l.dictID)
		}
		if body != nil { // read whole, in file order: it is the dictionary's turn
			f.mu.Lock()
			seen := f.dictSeen[l.dictID]
			if f.dictSeen == nil {
				f.dictSeen = map[int64]bool{}
			}
			f.dictSeen[l.dictID] = true
			f.mu.Unlock()
			if l.delta && !seen {
				return l, fmt.Errorf("a delta for dictionary %d, which has no values yet", l.dictID)
			}
		}
		types = []arrow.DataType{t}
	}
	if info.kind == msgRecordBatch {
		if f.Schema == nil {
			return l, errors.New("no schema before the record batch")
		}
		for _, fld := range f.Schema.Fields() {
			types = append(types, fld.Type)
		}
	}
	return l, checkLayout(l, info.bodyLen, types, body)
}

func kindName(kind uint8) string {
	switch kind {
	case msgSchema:
		return "schema"
	case msgDictionaryBatch:
		return "dictionary batch"
	}
	return "record batch"
}

// openTensor opens a file that holds one IPC Tensor message as one record
// batch of one row (readTensorMessage), or returns errNotTensorMessage.
// The tensor is read again, like any batch, when its row is decoded.
func (f *File) openTensor() error {
	rec, err := readTensorMessage(f.r, f.Size, f.cache.budget)
	if err != nil {
		return err
	}
	defer rec.Release()
	f.Format = IPCTensor
	f.Schema = rec.Schema()
	f.batches = []batchInfo{{length: f.Size, rows: 1}}
	f.indexed = true
	f.numRows = 1
	return nil
}

// openStream reads the schema message and indexes the first batches.
func (f *File) openStream() error {
	msg, info, err := f.readWhole(0)
	switch {
	case err != nil || info.kind != msgSchema:
		return fmt.Errorf("cannot read the Arrow IPC stream: %v", orMsg(err, "it does not start with a schema message"))
	}
	f.schemaMsg = msg
	f.scanned = int64(len(msg))
	if err := f.readSchema(); err != nil { // checkLayout needs it
		return err
	}
	_, size, _ := messagePrefix(msg)
	plen := int64(len(msg)) - size - info.bodyLen
	if f.dictTypes, err = dictValueTypes(msg[plen:plen+size], f.Schema); err != nil {
		return fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
	}
	for (len(f.batches) < eagerHeaders || f.Size <= f.small) && !f.indexed {
		if err := f.scanNext(); err != nil {
			if len(f.batches) == 0 {
				return fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
			}
			f.Warnings = append(f.Warnings, fmt.Sprintf("the stream breaks after %d record batches: %v", len(f.batches), err))
			f.indexed = true
		}
	}
	f.mu.Lock()
	f.restart()
	f.mu.Unlock()
	return nil
}

// scanNext indexes the next message of a stream.
func (f *File) scanNext() error {
	f.mu.Lock()
	off := f.scanned
	f.mu.Unlock()
	meta, info, eos, err := f.readMessage(off)
	if err != nil {
		return err
	}
	if !eos && (info.kind == msgRecordBatch || info.kind == msgDictionaryBatch) {
		if err := f.checkLayout(meta, info); err != nil {
			return fmt.Errorf("the %s message at offset %d: %w", kindName(info.kind), off, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if eos {
		f.indexed = true
		return nil
	}
	length := int64(len(meta)) + info.bodyLen
	switch info.kind {
	case msgDictionaryBatch:
		f.mu.Unlock()
		msg, _, err := f.readWhole(off)
		if err == nil {
			err = f.checkWhole(msg, msgDictionaryBatch) // with its body: the compressed buffers' sizes
		}
		f.mu.Lock()
		if err != nil {
			return err
		}
		if f.dictBytes += int64(len(msg)); f.dictBytes > f.cache.budget {
			return &refusal{want: f.dictBytes, limit: f.cache.budget, size: f.Size, what: "the stream's dictionaries", read: true}
		}
		f.dictMsgs = append(f.dictMsgs, msg)
	case msgRecordBatch:
		if int64(len(f.batches)) >= f.maxBatches() {
			return fmt.Errorf("more than %d record batches; with a cache budget of %s tensorview indexes at most that many (%w)",
				f.maxBatches(), HumanBytes(f.cache.budget), ErrTooLarge)
		}
		start := int64(0)
		if n := len(f.batches); n > 0 {
			start = f.batches[n-1].start + max(0, f.batches[n-1].rows)
		}
		f.batches = append(f.batches, batchInfo{offset: off, length: length, rows: info.rows, start: start, dicts: len(f.dictMsgs)})
	}
	f.scanned = off + length
	return nil
}

// maxBatches is how many record batches a file may have: their index
// (64 bytes a batch) must fit the cache budget.
func (f *File) maxBatches() int64 { return max(1024, f.cache.budget/64) }

// restart recomputes batch starts and the row total; unknown row counts
// are estimated from the bytes of the known ones. Call with f.mu held.
func (f *File) restart() {
	var knownRows, knownBytes int64
	for _, b := range f.batches {
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
	for i := range f.batches {
		f.batches[i].start = n
		r := f.batches[i].rows
		if r < 0 {
			r = int64(float64(f.batches[i].length)*perByte + 0.5)
			exact = false
		}
		n += r
	}
	if f.Format == IPCStream && f.scanned < f.Size && !f.indexed {
		n += int64(float64(f.Size-f.scanned)*perByte + 0.5) // the stream not yet scanned
		exact = false
	}
	f.numRows = n
	if exact && f.Format == IPCFile {
		f.indexed = true
	}
}

// Rows returns the number of rows and whether it is exact (false while
// Index has not finished: the rest is estimated from the bytes).
func (f *File) Rows() (n int64, exact bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.numRows, f.indexed
}

// NumBatches returns the number of record batches located so far.
func (f *File) NumBatches() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.batches)
}

// Indexed reports whether every record batch and its row count is known.
func (f *File) Indexed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.indexed
}

// Index reads the headers of the record batches Open did not, calling
// progress(bytesDone, bytesTotal) as it goes, until done or ctx is
// cancelled. Streams are scanned message by message.
func (f *File) Index(ctx context.Context, progress func(done, total int64)) (err error) {
	defer guard(&err, "indexing %s", f.Name)
	defer func() { // place what was found, however Index ends
		f.mu.Lock()
		f.restart()
		f.mu.Unlock()
	}()
	for i := 0; ; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		f.mu.Lock()
		done, n := f.indexed, len(f.batches)
		f.mu.Unlock()
		if done {
			break
		}
		switch f.Format {
		case IPCFile:
			if i >= n {
				f.mu.Lock()
				f.indexed = true
				f.mu.Unlock()
				break
			}
			if err := f.readHeader(i); err != nil {
				return err
			}
			if progress != nil && i%64 == 0 {
				f.mu.Lock()
				progress(f.batches[i].offset, f.Size)
				f.mu.Unlock()
			}
		case IPCStream:
			if err := f.scanNext(); err != nil {
				f.mu.Lock()
				f.Warnings = append(f.Warnings, fmt.Sprintf("the stream breaks after %d record batches: %v", len(f.batches), err))
				f.indexed = true
				f.mu.Unlock()
			}
			if progress != nil && i%64 == 0 {
				f.mu.Lock()
				progress(f.scanned, f.Size)
				f.mu.Unlock()
			}
		}
		if i%256 == 0 {
			f.mu.Lock()
			f.restart()
			f.mu.Unlock()
		}
	}
	f.mu.Lock()
	f.restart()
	f.indexed = true
	f.mu.Unlock()
	if progress != nil {
		progress(f.Size, f.Size)
	}
	return nil
}

// Locate returns the batch holding global row and the row's index in it;
// ok is false when row is out of range or in a part not yet indexed. While
// row counts are estimated the answer may change after Index.
func (f *File) Locate(row int64) (batch, local int, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for tries := 0; tries < 8; tries++ {
		if row < 0 || len(f.batches) == 0 {
			return 0, 0, false
		}
		i := sort.Search(len(f.batches), func(i int) bool { return f.batches[i].start > row }) - 1
		if i < 0 {
			return 0, 0, false
		}
		b := f.batches[i]
		if b.rows < 0 {
			// Unknown: read its header (a few hundred bytes), re-place the
			// batches and look again.
			f.mu.Unlock()
			err := f.readHeader(i)
			f.mu.Lock()
			if err != nil {
				return 0, 0, false
			}
			f.restart()
			continue
		}
		if row-b.start >= b.rows {
			return 0, 0, false
		}
		return i, int(row - b.start), true
	}
	return 0, 0, false
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

// windowRows returns how many rows of batch b a window holds, in multiples
// of 8, or 0 when the batch is read whole. Call with f.mu held.
func (f *File) windowRows(b batchInfo) int64 {
	if b.whole || b.rows <= 0 || b.length <= min(wholeBatchMax, f.cache.budget/4) {
		return 0
	}
	perRow := max(1, b.length/b.rows)
	w := max(8, (min(windowBytes, f.cache.budget/8)/perRow)/8*8)
	if w >= b.rows {
		return 0
	}
	return w
}

// where says which cache entry holds row: the whole batch or a window of it,
// and the row's index there.
func (f *File) where(row int64) (key cacheKey, local int, ok bool) {
	b, l, ok := f.Locate(row)
	if !ok {
		return key, 0, false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if w := f.windowRows(f.batches[b]); w > 0 {
		return cacheKey{b, l / int(w)}, l % int(w), true
	}
	return cacheKey{b, -1}, l, true
}

// Chunk names the unit of reading that holds row: its record batch, and the
// window of rows within it (-1 when the batch is read whole).
func (f *File) Chunk(row int64) (batch, window int, ok bool) {
	key, _, ok := f.where(row)
	return key.batch, key.window, ok
}

// ChunkBytes returns about how many bytes of the file Load(row) reads: the
// length of the row's record batch, or for a batch read by windows the
// window's share of it.
func (f *File) ChunkBytes(row int64) int64 {
	b, _, ok := f.Locate(row)
	if !ok {
		return 0
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	info := f.batches[b]
	if w := f.windowRows(info); w > 0 {
		return info.length / info.rows * w
	}
	return info.length
}

// Loaded reports whether the rows of row's batch (or window of a large
// batch) are in the cache.
func (f *File) Loaded(row int64) bool {
	key, _, ok := f.where(row)
	if !ok {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cache.has(key)
}

// Load reads and decodes the data of row into the cache: its record batch,
// or for a batch larger than a quarter of the budget only a window of rows
// around it (just those bytes of its buffers).
func (f *File) Load(row int64) error {
	_, _, err := f.rowData(context.Background(), row)
	return err
}

// LoadContext is Load whose big reads (a record batch read whole, BigRead
// bytes or more), when ctx can be cancelled, show in Reading and stop
// between pieces once ctx is done, with an error wrapping ErrCanceled;
// nothing of them is cached then.
func (f *File) LoadContext(ctx context.Context, row int64) error {
	_, _, err := f.rowData(ctx, row)
	return err
}

// rowData returns the cached record batch (whole or a window) holding row,
// and the row's index in it, reading it when needed; ctx scopes the big
// reads as for LoadContext.
func (f *File) rowData(ctx context.Context, row int64) (c *chunk, local int, err error) {
	defer guard(&err, "reading row %d", row)
	key, local, ok := f.where(row)
	if !ok {
		return nil, 0, fmt.Errorf("no row %d (yet)", row)
	}
	if key.window < 0 {
		c, err := f.batch(ctx, key.batch)
		return c, local, err
	}
	f.mu.Lock()
	if c, ok := f.cache.get(key); ok {
		f.mu.Unlock()
		return c, local, nil
	}
	b := f.batches[key.batch]
	w := f.windowRows(b)
	f.mu.Unlock()
	s := int64(key.window) * w
	rec, _, err := f.readWindow(key.batch, b, s, min(s+w, b.rows))
	if errors.Is(err, errNoWindow) {
		f.mu.Lock()
		f.batches[key.batch].whole = true
		f.mu.Unlock()
		return f.rowData(ctx, row)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("cannot read rows %d..%d of record batch %d: %w", s, s+w, key.batch, err)
	}
	c = f.validate(key.batch, rec)
	f.mu.Lock()
	f.cache.put(key, c, recordBytes(rec))
	f.windowReads++
	f.mu.Unlock()
	return c, local, nil
}

// validate runs arrow-go's validation on every column of a decoded record
// batch (or window) of batch i: a column it finds broken shows its error in
// its cells, whose values are never read, and in its field.
func (f *File) validate(i int, rec arrow.RecordBatch) *chunk {
	c := &chunk{rec: rec, colErr: make([]string, rec.NumCols())}
	for k := range c.colErr {
		if err := validateArray(rec.Column(k)); err != nil {
			c.colErr[k] = fmt.Sprintf("record batch %d: %v", i, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, e := range c.colErr {
		if e != "" && k < len(f.Fields) && f.Fields[k].Err == "" {
			f.Fields[k].Err = e
		}
	}
	return c
}

// Batch returns record batch i, reading and decoding it when it is not
// cached. The batch stays valid after eviction from the cache (memory is
// reclaimed by the garbage collector once nothing refers to it).
func (f *File) Batch(i int) (rec arrow.RecordBatch, err error) {
	c, err := f.batch(context.Background(), i)
	if err != nil {
		return nil, err
	}
	return c.rec, nil
}

// batch is Batch with the big reads scoped by ctx.
func (f *File) batch(ctx context.Context, i int) (c *chunk, err error) {
	defer guard(&err, "reading record batch %d", i)
	f.mu.Lock()
	if c, ok := f.cache.get(cacheKey{i, -1}); ok {
		f.mu.Unlock()
		return c, nil
	}
	if i < 0 || i >= len(f.batches) {
		f.mu.Unlock()
		return nil, fmt.Errorf("no record batch %d", i)
	}
	b := f.batches[i]
	dicts := f.dictMsgs[:b.dicts]
	f.mu.Unlock()

	rec, err := f.decodeBatch(ctx, i, b, dicts)
	if err != nil {
		return nil, err
	}
	size := recordBytes(rec)
	c = f.validate(i, rec)

	f.mu.Lock()
	defer f.mu.Unlock()
	if b.rows >= 0 && rec.NumRows() != b.rows {
		f.Warnings = append(f.Warnings, fmt.Sprintf("record batch %d has %d rows, its header says %d", i, rec.NumRows(), b.rows))
	}
	if f.batches[i].rows < 0 {
		f.batches[i].rows = rec.NumRows()
		f.restart()
	}
	f.cache.put(cacheKey{i, -1}, c, size)
	return c, nil
}

// decodeBatch reads and decodes record batch i: with a FileReader of
// arrow-go's for IPC files, and for streams by handing arrow-go's stream
// reader the schema, the dictionaries before the batch and the batch's own
// message. Each decode has its own budgetAllocator, so that what arrow-go
// allocates for it, however large the lengths the file declares, stays
// within the cache budget: past it the decode fails with an error wrapping
// ErrTooLarge.
//
// A big read for a context (see LoadContext) goes through a reader that
// shows in Reading and stops when ctx is done.
func (f *File) decodeBatch(ctx context.Context, i int, b batchInfo, dicts [][]byte) (rec arrow.RecordBatch, err error) {
	r := f.r
	if ctx.Done() != nil && b.length >= BigRead { // ctx can be cancelled
		r = f.ends.with(view{f.meter, ctx})
	}
	if f.Format == IPCTensor {
		return readTensorMessage(r, f.Size, f.cache.budget)
	}
	what := fmt.Sprintf("record batch %d", i)
	mem := newBudgetAllocator(f.cache.budget, f.Size, what)
	defer func() {
		if ref := mem.Err(); ref != nil {
			rec, err = nil, ref
		}
	}()
	if f.Format == IPCFile {
		f.mu.Lock()
		closed := f.fr == nil
		f.mu.Unlock()
		if closed {
			return nil, fmt.Errorf("cannot read %s: %w", what, errClosed)
		}
		if err := f.readHeader(i); err != nil { // verifies its metadata
			return nil, err
		}
		f.mu.Lock()
		b = f.batches[i]
		f.mu.Unlock()
		if b.compressed {
			// The decoded sizes of compressed buffers are in the body: read
			// the message here, check it whole, and hand it to arrow-go.
			if err := checkSize(what, b.length, f.cache.budget, f.Size); err != nil {
				return nil, err
			}
			msg := make([]byte, b.length)
			if err := readFull(r, msg, b.offset); err != nil {
				return nil, fmt.Errorf("cannot read %s: %w", what, err)
			}
			if _, err := f.layout(msg[:b.metaLen], msg[b.metaLen:], messageInfo{kind: msgRecordBatch, bodyLen: b.length - b.metaLen}); err != nil {
				return nil, fmt.Errorf("%s: %w", what, err)
			}
			if err := patchInPlace(msg); err != nil {
				return nil, fmt.Errorf("%s: %w", what, err)
			}
			r = &overlay{r: r, off: b.offset, b: msg}
		}
		// The footer and schema come from the cached end of the file.
		fr, err := ipc.NewFileReader(io.NewSectionReader(r, 0, f.Size), ipc.WithBodySizeLimit(f.Size),
			ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem))
		if err != nil {
			return nil, arrowErr("cannot read "+what, err)
		}
		defer fr.Close()
		rec, err := fr.RecordBatchAt(i)
		if err != nil {
			return nil, arrowErr("cannot read "+what, err)
		}
		return rec, nil
	}
	if err := checkSize(what, b.length, f.cache.budget, f.Size); err != nil {
		return nil, err
	}
	msg := make([]byte, b.length)
	if err := readFull(r, msg, b.offset); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", what, err)
	}
	if err := f.checkWhole(msg, msgRecordBatch); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err := patchInPlace(msg); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	parts := make([]io.Reader, 0, len(dicts)+2)
	parts = append(parts, bytes.NewReader(f.schemaMsg))
	for _, d := range dicts {
		parts = append(parts, bytes.NewReader(d))
	}
	parts = append(parts, bytes.NewReader(msg))
	sr, err := ipc.NewReader(io.MultiReader(parts...), ipc.WithBodySizeLimit(f.Size),
		ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("cannot decode %s: %w", what, err)
	}
	defer sr.Release()
	if !sr.Next() {
		return nil, arrowErr("cannot decode "+what, orErr(sr.Err(), "no record batch in the message"))
	}
	rec = sr.RecordBatch()
	rec.Retain()
	return rec, nil
}

// patchInPlace rewrites the metadata of a whole message (prefix, metadata,
// body) compressed the Arrow 0.17 way, as patchLegacy does.
func patchInPlace(msg []byte) error {
	plen, size, err := messagePrefix(msg)
	if err != nil {
		return err
	}
	if size < 0 || int64(plen)+size > int64(len(msg)) {
		return errFlatbuffer
	}
	patched, ok, err := patchLegacy(msg[:int64(plen)+size])
	if ok {
		copy(msg, patched)
	}
	return err
}

// overlay serves the reads of a ReaderAt that fall within b, the bytes at
// off, from b.
type overlay struct {
	r   io.ReaderAt
	off int64
	b   []byte
}

// ReadAt implements io.ReaderAt.
func (o *overlay) ReadAt(p []byte, off int64) (int, error) {
	if off >= o.off && off+int64(len(p)) <= o.off+int64(len(o.b)) {
		return copy(p, o.b[off-o.off:]), nil
	}
	return o.r.ReadAt(p, off)
}

// arrowErr says what went wrong in arrow-go's reader after context. arrow-go
// turns errors inside its readers, such as a decompressor's on corrupt
// lz4/zstd data, into panics that it recovers and reports with generic
// words ("unknown error while reading"); those words are dropped, and what
// is left (the decompressor's error) is said to make the data corrupt.
func arrowErr(context string, err error) error {
	msg := err.Error()
	for _, p := range []string{"arrow/ipc: unknown error while reading: ", "arrow/ipc: error reading record batch: "} {
		if rest, ok := strings.CutPrefix(msg, p); ok && !strings.Contains(rest, "runtime error") {
			return fmt.Errorf("%s: its data is corrupt: %s", context, rest)
		}
	}
	return fmt.Errorf("%s: %w", context, err)
}

// CacheBytes returns the bytes of decoded record batches in the cache and
// its budget.
func (f *File) CacheBytes() (used, budget int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cache.used, f.cache.budget
}

// Close drops the cache and closes the reader.
func (f *File) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cache = newLRU(f.cache.budget)
	f.meter.close()
	if f.fr != nil {
		f.fr.Close()
		f.fr = nil
	}
}

// readSchema decodes the schema message with arrow-go.
func (f *File) readSchema() (err error) {
	r, err := ipc.NewReader(bytes.NewReader(f.schemaMsg), ipc.WithMetadataSizeLimit(maxMetadata))
	if err != nil {
		return arrowErr("cannot read the schema", err)
	}
	defer r.Release()
	f.Schema = r.Schema()
	return nil
}

// describe fills Metadata and Fields from the schema.
func (f *File) describe() {
	if md := f.Schema.Metadata(); md.Len() > 0 {
		for i, k := range md.Keys() {
			f.Metadata = append(f.Metadata, KV{k, md.Values()[i]})
		}
	}
	for i, fld := range f.Schema.Fields() {
		f.Fields = append(f.Fields, describeField(i, fld))
	}
}

// recordBytes is the memory a decoded record batch holds: its buffers.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		if d, ok := d.(*array.Data); !ok || d == nil {
			return
		}
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
		walk(d.Dictionary())
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// HumanBytes formats a byte count with binary units: 1.5 KiB, 3.0 MiB.
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
