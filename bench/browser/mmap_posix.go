//go:build linux || darwin

package main

import (
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// scratchMin is the allocation size from which mmapAllocator maps a scratch
// file instead of using the Go heap (a variable for the test).
var scratchMin int64 = 64 << 20

// mmapAllocator is an arrow memory.Allocator whose big allocations are
// shared mappings of unlinked scratch files in dir: a multi-gigabyte record
// batch is built and written without holding it in the heap (the kernel
// writes its pages back to the scratch file under memory pressure).
type mmapAllocator struct {
	dir  string
	heap memory.Allocator
	mu   sync.Mutex
	maps map[uintptr][]byte // base address to the whole mapping
}

func newMmapAllocator(dir string) *mmapAllocator {
	return &mmapAllocator{dir: dir, heap: memory.NewGoAllocator(), maps: map[uintptr][]byte{}}
}

func base(b []byte) uintptr {
	if cap(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

func (a *mmapAllocator) Allocate(size int) []byte {
	if int64(size) < scratchMin {
		return a.heap.Allocate(size)
	}
	f, err := os.CreateTemp(a.dir, ".scratch-*")
	if err != nil {
		panic(fmt.Sprintf("scratch file: %v", err))
	}
	defer f.Close()
	defer os.Remove(f.Name()) // the mapping keeps the file
	if err := f.Truncate(int64(size)); err != nil {
		panic(fmt.Sprintf("scratch file: %v", err))
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		panic(fmt.Sprintf("mmap %d bytes: %v", size, err))
	}
	a.mu.Lock()
	a.maps[base(m)] = m
	a.mu.Unlock()
	return m
}

func (a *mmapAllocator) mapping(b []byte) ([]byte, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.maps[base(b)]
	return m, ok
}

func (a *mmapAllocator) Reallocate(size int, b []byte) []byte {
	m, mapped := a.mapping(b)
	switch {
	case mapped && size <= len(m):
		return m[:size] // shrink (or regrow) in place
	case !mapped && int64(size) < scratchMin:
		return a.heap.Reallocate(size, b)
	}
	nb := a.Allocate(size)
	copy(nb, b)
	a.Free(b)
	return nb
}

func (a *mmapAllocator) Free(b []byte) {
	if m, ok := a.mapping(b); ok {
		a.mu.Lock()
		delete(a.maps, base(b))
		a.mu.Unlock()
		_ = syscall.Munmap(m)
		return
	}
	a.heap.Free(b)
}

// close unmaps what was not freed.
func (a *mmapAllocator) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, m := range a.maps {
		_ = syscall.Munmap(m)
		delete(a.maps, k)
	}
}

// freeBytes is the space available to unprivileged users on dir's file system.
func freeBytes(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
