package decode

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/internal/ipcverify"
)

// This file reads the encapsulated IPC messages of a file or stream (prefix,
// metadata, body) for the index, and checks a record batch's or dictionary
// batch's body layout against the schema before arrow-go reads it.

// readMessage reads the encapsulated message at off: prefix and metadata,
// checking that its body lies within the file. eos reports the
// end-of-stream marker (or the end of the file).
func (x *ipcIndex) readMessage(off int64) (meta []byte, info messageInfo, eos bool, err error) {
	// One read usually covers prefix and metadata (a few hundred bytes).
	return x.readMessageAbout(off, 2048)
}

// readMessageAbout is readMessage whose first read is of about bytes
// (at least 8): the length of prefix and metadata when known (an IPC
// file's block says it), so that no byte of the body is read.
func (x *ipcIndex) readMessageAbout(off, about int64) (meta []byte, info messageInfo, eos bool, err error) {
	if off+4 > x.size {
		return nil, info, true, nil // a stream may end without a marker
	}
	pre := make([]byte, min(max(about, 8), x.size-off))
	if err := readFull(x.r, pre, off); err != nil {
		return nil, info, false, err
	}
	plen, size, err := messagePrefix(pre)
	if err != nil {
		return nil, info, false, err
	}
	if size == 0 {
		return nil, info, true, nil
	}
	if size < 0 || off+int64(plen)+size > x.size {
		return nil, info, false, fmt.Errorf("IPC message at offset %d claims %d bytes of metadata, past the end of the file", off, size)
	}
	if size > maxMetadata {
		return nil, info, false, fmt.Errorf("IPC message at offset %d claims %s of metadata; tensorview reads at most %s (%w)", off, HumanBytes(size), HumanBytes(maxMetadata), ErrTooLarge)
	}
	meta = pre
	if int64(len(pre)) >= int64(plen)+size {
		meta = pre[:int64(plen)+size]
	} else {
		meta = make([]byte, int64(plen)+size)
		if err := readFull(x.r, meta, off); err != nil {
			return nil, info, false, err
		}
	}
	if info, err = parseMessage(meta[plen:]); err != nil {
		return nil, info, false, fmt.Errorf("IPC message at offset %d: %w", off, err)
	}
	total := int64(len(meta)) + info.bodyLen
	if off+total > x.size {
		return nil, info, false, fmt.Errorf("IPC message at offset %d has a %d-byte body that runs past the end of the file", off, info.bodyLen)
	}
	return meta, info, false, nil
}

// readWhole reads the message at off with its body, within the cache
// budget.
func (x *ipcIndex) readWhole(off int64) ([]byte, messageInfo, error) {
	meta, info, eos, err := x.readMessage(off)
	if err != nil || eos {
		if err == nil {
			err = fmt.Errorf("no IPC message at offset %d", off)
		}
		return nil, info, err
	}
	if err := checkSize(fmt.Sprintf("the IPC message at offset %d", off), int64(len(meta))+info.bodyLen, x.budget, x.size); err != nil {
		return nil, info, err
	}
	msg := make([]byte, int64(len(meta))+info.bodyLen)
	copy(msg, meta)
	if err := readFull(x.r, msg[len(meta):], off+int64(len(meta))); err != nil {
		return nil, info, err
	}
	return msg, info, nil
}

// checkLayout checks the body layout of the record batch or dictionary
// batch message whose prefix and metadata are meta (see layout).
func (x *ipcIndex) checkLayout(meta []byte, info messageInfo) error {
	_, err := x.layout(meta, nil, info)
	return err
}

// checkWhole checks the body layout of a whole record batch or dictionary
// batch message (prefix, metadata and body), the decoded sizes of
// compressed buffers included.
func (x *ipcIndex) checkWhole(msg []byte, kind uint8) error {
	plen, size, err := messagePrefix(msg)
	if err != nil {
		return err
	}
	if size < 0 || int64(plen)+size > int64(len(msg)) {
		return errors.New("truncated message")
	}
	meta, body := msg[:int64(plen)+size], msg[int64(plen)+size:]
	_, err = x.layout(meta, body, messageInfo{kind: kind, bodyLen: int64(len(body))})
	return err
}

// layout parses and checks (checkLayout in layout.go) the body layout of
// the record batch or dictionary batch message whose prefix and metadata
// are meta, against the schema's types or the dictionary's value type;
// body is the message's body, or nil. A dictionary batch read whole, in
// file order, counts as its dictionary's values: a delta before them is an
// error.
func (x *ipcIndex) layout(meta, body []byte, info messageInfo) (batchLayout, error) {
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
		t, ok := x.dictTypes[l.dictID]
		if !ok {
			return l, fmt.Errorf("a dictionary batch for id %d, which no field of the schema has", l.dictID)
		}
		if body != nil { // read whole, in file order: it is the dictionary's turn
			if seen := x.sawDictionary(l.dictID); l.delta && !seen {
				return l, fmt.Errorf("a delta for dictionary %d, which has no values yet", l.dictID)
			}
		}
		types = []arrow.DataType{t}
	}
	if info.kind == msgRecordBatch {
		if x.schema == nil {
			return l, errors.New("no schema before the record batch")
		}
		for _, fld := range x.schema.Fields() {
			types = append(types, fld.Type)
		}
	}
	return l, checkLayout(l, info.bodyLen, types, body)
}

// sawDictionary records that dictionary id has been read and reports
// whether it had been before.
func (x *ipcIndex) sawDictionary(id int64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	seen := x.dictSeen[id]
	if x.dictSeen == nil {
		x.dictSeen = map[int64]bool{}
	}
	x.dictSeen[id] = true
	return seen
}

// kindName names a message by its header type, as errors say it.
func kindName(kind uint8) string { return ipcverify.HeaderName(int(kind)) }

func orMsg(err error, msg string) string {
	if err != nil {
		return err.Error()
	}
	return msg
}
