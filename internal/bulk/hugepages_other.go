//go:build !linux

package bulk

// HugePages is a no-op beyond Linux.
func HugePages(b []byte) {}
