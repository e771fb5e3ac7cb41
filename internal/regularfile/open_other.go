//go:build !unix

package regularfile

import "os"

// openNonblocking is os.Open where there is no O_NONBLOCK open: the mode
// read before opening is the check.
func openNonblocking(path string) (*os.File, error) { return os.Open(path) }
