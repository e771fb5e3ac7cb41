package bulk

import (
	"syscall"
	"unsafe"
)

// madvHugePage is MADV_HUGEPAGE.
const madvHugePage = 14

// hugePage is the size of a huge page on amd64 and arm64: a block smaller
// than it is not worth the system call.
const hugePage = 2 << 20

// HugePages asks the kernel to back b, fresh memory, with huge pages where
// it can (transparent huge pages in "madvise" or "always" mode). It is a
// hint: nothing changes when the kernel declines.
func HugePages(b []byte) {
	if len(b) < hugePage {
		return
	}
	// madvise wants a page-aligned start.
	skip := int(-uintptr(unsafe.Pointer(&b[0])) & 4095)
	syscall.Madvise(b[skip:], madvHugePage)
}
