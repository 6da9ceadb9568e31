//go:build !linux && !darwin

package main

import "github.com/apache/arrow-go/v18/arrow/memory"

// scratchMin: without mmap, single batches are built in the heap.
var scratchMin int64 = 1 << 62

type mmapAllocator struct{ memory.Allocator }

func newMmapAllocator(string) *mmapAllocator { return &mmapAllocator{memory.NewGoAllocator()} }

func (*mmapAllocator) close() {}

func freeBytes(string) (int64, bool) { return 0, false }
