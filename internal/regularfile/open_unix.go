//go:build unix

package regularfile

import (
	"os"
	"syscall"
)

// openNonblocking opens path with O_NONBLOCK: a FIFO opens at once, with
// no writer, to be refused. A regular file ignores the flag.
func openNonblocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
