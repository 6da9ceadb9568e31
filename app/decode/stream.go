package decode

import (
	"bytes"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// openStream reads the schema message of an IPC stream and scans the first
// messages: eagerHeaders record batches, or every one in a stream of at
// most small bytes.
func (x *ipcIndex) openStream() error {
	msg, info, err := x.readWhole(0)
	if err != nil || info.kind != msgSchema {
		return fmt.Errorf("cannot read the Arrow IPC stream: %v", orMsg(err, "it does not start with a schema message"))
	}
	x.schemaMsg = msg
	x.scanned = int64(len(msg))
	if err := x.readSchema(); err != nil { // checkLayout needs it
		return err
	}
	_, size, _ := messagePrefix(msg)
	plen := int64(len(msg)) - size - info.bodyLen
	if x.dictTypes, err = dictValueTypes(msg[plen:plen+size], messageHeader, x.schema); err != nil {
		return fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
	}
	for (x.numBatches() < eagerHeaders || x.size <= x.small) && !x.isIndexed() {
		if err := x.scanNext(); err != nil {
			return fmt.Errorf("cannot read the Arrow IPC stream: %w", err)
		}
	}
	x.replace()
	return nil
}

// readSchema decodes the schema message with arrow-go.
func (x *ipcIndex) readSchema() error {
	r, err := ipc.NewReader(bytes.NewReader(x.schemaMsg), ipc.WithMetadataSizeLimit(maxMetadata))
	if err != nil {
		return arrowErr("cannot read the schema", err)
	}
	defer r.Release()
	x.schema = r.Schema()
	return nil
}

// scanNext indexes the next message of a stream, one goroutine at a time.
// At the end of the stream the index is complete; where the stream breaks
// after some record batches, it is complete too, with a warning. It
// returns the error of a stream that breaks before its first record batch.
func (x *ipcIndex) scanNext() error {
	x.scan.Lock()
	defer x.scan.Unlock()
	if x.isIndexed() {
		return nil // another goroutine scanned the last message
	}
	err := x.scanMessage()
	if err == nil {
		return nil
	}
	x.mu.Lock()
	n := len(x.batches)
	if n > 0 {
		x.indexed = true
	}
	x.mu.Unlock()
	if n == 0 {
		return err
	}
	x.warn(fmt.Sprintf("the stream breaks after %d record batches: %v", n, err))
	return nil
}

// scanMessage reads the metadata of the message where the scan is, checks
// it, and records a record batch's place or a dictionary batch whole.
// Call with x.scan held.
func (x *ipcIndex) scanMessage() error {
	off := x.scannedBytes()
	meta, info, eos, err := x.readMessage(off)
	if err != nil {
		return err
	}
	if eos {
		x.mu.Lock()
		x.indexed = true
		x.mu.Unlock()
		return nil
	}
	if info.kind == msgRecordBatch || info.kind == msgDictionaryBatch {
		if err := x.checkLayout(meta, info); err != nil {
			return fmt.Errorf("the %s message at offset %d: %w", kindName(info.kind), off, err)
		}
	}
	var dict []byte
	if info.kind == msgDictionaryBatch {
		if dict, _, err = x.readWhole(off); err != nil {
			return err
		}
		if err := x.checkWhole(dict, msgDictionaryBatch); err != nil { // with its body: the compressed buffers' sizes
			return err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	length := int64(len(meta)) + info.bodyLen
	switch info.kind {
	case msgDictionaryBatch:
		if x.dictBytes += int64(len(dict)); x.dictBytes > x.budget {
			return &refusal{want: x.dictBytes, limit: x.budget, size: x.size, what: "the stream's dictionaries", read: true}
		}
		x.dictMsgs = append(x.dictMsgs, dict)
	case msgRecordBatch:
		if int64(len(x.batches)) >= x.maxBatches() {
			return fmt.Errorf("more than %d record batches; with a cache budget of %s tensorview indexes at most that many (%w)",
				x.maxBatches(), HumanBytes(x.budget), ErrTooLarge)
		}
		start := int64(0)
		if n := len(x.batches); n > 0 {
			start = x.batches[n-1].start + max(0, x.batches[n-1].rows)
		}
		x.batches = append(x.batches, batchInfo{offset: off, length: length, rows: info.rows, start: start, dicts: len(x.dictMsgs)})
	}
	x.scanned = off + length
	return nil
}

// openTensor opens a file that holds one IPC Tensor message as one record
// batch of one row (readTensorMessage), or returns errNotTensorMessage.
// The tensor is read again, like any batch, when its row is decoded.
func (x *ipcIndex) openTensor() error {
	rec, err := readTensorMessage(x.r, x.size, x.budget)
	if err != nil {
		return err
	}
	defer rec.Release()
	x.format = IPCTensor
	x.schema = rec.Schema()
	x.batches = []batchInfo{{length: x.size, rows: 1}}
	x.indexed = true
	x.numRows = 1
	return nil
}
