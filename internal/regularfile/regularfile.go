// Package regularfile reads and writes only regular files. A path given
// where a file is expected that names a FIFO, a device, a socket or a
// directory is refused by name, never waited on (opening a FIFO blocks
// until a writer comes) and never replaced (an atomic rename over
// /dev/stdout would put a regular file in its place). It is not a file
// system abstraction: callers keep using os and io/fs.
package regularfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Error is a path that names something other than a regular file.
type Error struct {
	Path string
	// Kind is what the path names, with its article: "a named pipe
	// (FIFO)", "a character device", "a directory", "a symbolic link" …
	Kind string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s, not a regular file", e.Path, e.Kind) }

// Kind names what a file of mode is, with its article.
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	}
	return "an irregular file"
}

// check is nil for a regular file, else an *Error naming path.
func check(path string, mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	return &Error{Path: path, Kind: Kind(mode)}
}

// Open opens path to read, following symbolic links, when it is a regular
// file; anything else is an *Error. It never blocks on a FIFO: the mode is
// read before opening, and again from the opened file (opened without
// waiting for a writer), so a FIFO put in the file's place in between is
// refused too.
func Open(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // as os.Open says it: the stat is this open's first step
		}
		return nil, err
	}
	if err := check(path, info.Mode()); err != nil {
		return nil, err
	}
	f, err := openNonblocking(path)
	if err != nil {
		return nil, err
	}
	if info, err = f.Stat(); err != nil {
		f.Close()
		return nil, err
	}
	if err := check(path, info.Mode()); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckTarget is nil when path may be written over: nothing is there, or
// a regular file is. A symbolic link is refused as itself, not followed:
// writing a file in its place would replace the link, not the file it
// names.
func CheckTarget(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return check(path, info.Mode())
}

// CheckFS is nil when name in fsys is a regular file (a symbolic link to
// one is: os.DirFS follows it), else an *Error naming it as shown, the
// name callers give it in messages (the directory joined with name).
func CheckFS(fsys fs.FS, name, shown string) error {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return err
	}
	return check(shown, info.Mode())
}
