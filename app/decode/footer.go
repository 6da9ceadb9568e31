package decode

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// openFile reads the footer of an IPC file: the schema, the dictionary
// batches (checked, then read by arrow-go within the cache budget) and the
// blocks of the record batches, whose first headers it reads.
func (x *ipcIndex) openFile() error {
	footer, err := x.readFooter()
	if err != nil {
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
	footerAt := x.size - 10 - int64(len(footer))
	noDicts, err := footerWithoutDictionaries(footer)
	if err != nil {
		return fmt.Errorf("cannot read the Arrow IPC file footer: %w", err)
	}
	fr, err := ipc.NewFileReader(io.NewSectionReader(&overlay{r: x.r, off: footerAt, b: noDicts}, 0, x.size),
		ipc.WithBodySizeLimit(x.size), ipc.WithMetadataSizeLimit(maxMetadata))
	if err != nil {
		return arrowErr("cannot read the Arrow IPC file", err)
	}
	x.schema = fr.Schema()
	fr.Close()
	if x.dictTypes, err = dictValueTypes(footer, footerSchema, x.schema); err != nil {
		return fmt.Errorf("cannot read the Arrow IPC file: %w", err)
	}
	if err := x.checkDictionaries(dictBlocks); err != nil {
		return err
	}
	if err := x.readDictionaries(len(blocks)); err != nil {
		return err
	}
	return x.locateBatches(blocks)
}

// readFooter reads the footer flatbuffer at the end of an IPC file, after
// checking the ARROW1 magic and the footer's length.
func (x *ipcIndex) readFooter() ([]byte, error) {
	const magic = "ARROW1"
	if x.size < 8+10 {
		return nil, errors.New("cannot read the Arrow IPC file: it is too short to hold a footer")
	}
	tail := make([]byte, 10)
	if err := readFull(x.r, tail, x.size-10); err != nil {
		return nil, err
	}
	if string(tail[4:]) != magic {
		return nil, errors.New("cannot read the Arrow IPC file: it does not end with the ARROW1 magic (is it truncated?)")
	}
	flen := int64(int32(uint32(tail[0]) | uint32(tail[1])<<8 | uint32(tail[2])<<16 | uint32(tail[3])<<24))
	if flen <= 0 || flen > x.size-18 {
		return nil, fmt.Errorf("cannot read the Arrow IPC file: footer length %d does not fit the file", flen)
	}
	if flen > maxMetadata {
		return nil, fmt.Errorf("cannot read the Arrow IPC file: its footer claims %s; tensorview reads at most %s (%w)", HumanBytes(flen), HumanBytes(maxMetadata), ErrTooLarge)
	}
	footer := make([]byte, flen)
	if err := readFull(x.r, footer, x.size-10-flen); err != nil {
		return nil, err
	}
	return footer, nil
}

// checkDictionaries checks the dictionary batches the footer lists: their
// total length within the cache budget, each one's metadata and body
// layout (checkBlock).
func (x *ipcIndex) checkDictionaries(dictBlocks []block) error {
	var dictBytes int64
	for k, b := range dictBlocks {
		if dictBytes += b.metaLen + b.bodyLen; dictBytes > x.budget || b.metaLen+b.bodyLen < 0 {
			return fmt.Errorf("cannot read the Arrow IPC file: %w", &refusal{want: dictBytes, limit: x.budget, size: x.size, what: "its dictionaries", read: true})
		}
		if err := x.checkBlock(b, msgDictionaryBatch); err != nil {
			return fmt.Errorf("cannot read dictionary %d of the Arrow IPC file: %w", k, err)
		}
	}
	return nil
}

// readDictionaries has arrow-go read the file's dictionaries, as it does
// when it opens a file, with an allocator that holds it to the cache
// budget, and checks that it finds the batches the footer lists.
func (x *ipcIndex) readDictionaries(batches int) error {
	mem := newBudgetAllocator(x.budget, x.size, "the file's dictionaries")
	fr, err := ipc.NewFileReader(io.NewSectionReader(x.r, 0, x.size), ipc.WithBodySizeLimit(x.size),
		ipc.WithMetadataSizeLimit(maxMetadata), ipc.WithAllocator(mem))
	if err != nil {
		if ref := mem.Err(); ref != nil {
			err = ref
		}
		return arrowErr("cannot read the Arrow IPC file", err)
	}
	defer fr.Close()
	if fr.NumRecords() != batches {
		return fmt.Errorf("cannot read the Arrow IPC file: footer lists %d record batches, arrow-go %d", batches, fr.NumRecords())
	}
	return nil
}

// locateBatches records the record batch blocks of the footer and reads
// the first headers (every one of a small file).
func (x *ipcIndex) locateBatches(blocks []block) error {
	for _, b := range blocks {
		if b.offset < 8 || b.metaLen <= 0 || b.bodyLen < 0 || b.offset+b.metaLen+b.bodyLen > x.size || b.metaLen > maxMetadata {
			return fmt.Errorf("cannot read the Arrow IPC file: a record batch block (offset %d) lies outside the file", b.offset)
		}
		x.batches = append(x.batches, batchInfo{offset: b.offset, length: b.metaLen + b.bodyLen, metaLen: b.metaLen, rows: -1})
	}
	if n := int64(len(blocks)); n > x.maxBatches() {
		return fmt.Errorf("cannot read the Arrow IPC file: its footer lists %d record batches; with a cache budget of %s tensorview indexes at most %d (%w)",
			n, HumanBytes(x.budget), x.maxBatches(), ErrTooLarge)
	}
	x.scanned = x.size
	eager := eagerHeaders
	if x.size <= x.small {
		eager = len(x.batches)
	}
	if err := x.readHeaders(context.Background(), 0, min(len(x.batches), eager), nil); err != nil {
		return err
	}
	x.replace()
	return nil
}

// checkBlock verifies the message a block of an IPC file's footer points
// to, before arrow-go reads it: see readBlock. A dictionary batch's body is
// read too (its compressed buffers' sizes are there), and the batch is
// recorded in x.dicts with its dictionary's id.
func (x *ipcIndex) checkBlock(b block, kind uint8) error {
	if b.offset < 8 || b.metaLen <= 0 || b.bodyLen < 0 || b.offset+b.metaLen+b.bodyLen > x.size {
		return fmt.Errorf("its block (offset %d) lies outside the file", b.offset)
	}
	if _, err := x.readBlock(b, kind); err != nil || kind != msgDictionaryBatch {
		return err
	}
	_, l, err := x.readDictBlock(x.r, b)
	if err == nil {
		x.dicts = append(x.dicts, fileDict{b, l.dictID})
	}
	return err
}

// readDictBlock reads the dictionary batch message of an IPC file's block
// b whole through r and checks its layout with its body.
func (x *ipcIndex) readDictBlock(r io.ReaderAt, b block) ([]byte, batchLayout, error) {
	msg := make([]byte, b.metaLen+b.bodyLen)
	if err := readFull(r, msg, b.offset); err != nil {
		return nil, batchLayout{}, err
	}
	l, err := x.layout(msg[:b.metaLen], msg[b.metaLen:], messageInfo{kind: msgDictionaryBatch, bodyLen: b.bodyLen})
	return msg, l, err
}

// readBlock reads and verifies the metadata of the message of an IPC file's
// block: a message of the kind wanted whose flatbuffer lies within the
// block's metadata (arrow-go reads the block's metaLen bytes) and whose body
// length is the block's.
func (x *ipcIndex) readBlock(b block, kind uint8) (messageInfo, error) {
	_, info, _, err := x.readBlockLayout(b, kind)
	return info, err
}

// readBlockLayout is readBlock that also returns the message's prefix and
// metadata and its body layout, checked.
func (x *ipcIndex) readBlockLayout(b block, kind uint8) (meta []byte, info messageInfo, l batchLayout, err error) {
	meta, info, eos, err := x.readMessageAbout(b.offset, b.metaLen)
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
		l, err = x.layout(meta, nil, info)
		info.compressed = l.compressed
	}
	return meta, info, l, err
}
