// Package atomicfile writes a file whole or not at all.
package atomicfile

import (
	"bufio"
	"os"
	"path/filepath"

	"github.com/moviemock/moviemock/internal/regularfile"
)

// Write writes path through a 1 MiB buffer, atomically: to a temporary
// file beside it (".name.*.tmp", which no fixture loader reads), synced,
// then renamed over path, keeping the mode of the file it replaces (0644
// for a new one). A reader, or a server watching the directory, sees the
// old file or the new one, never half of one. The error is the first of
// creating, writing (write's own), flushing, syncing, closing and
// renaming; the temporary file is removed when there is one.
//
// Only a regular file is replaced: a path naming a symbolic link, a FIFO,
// a device, a socket or a directory is a *regularfile.Error, before
// anything is written and again just before the rename, and the node is
// left as it was (a rename over /dev/stdout would make it a file).
func Write(path string, write func(*bufio.Writer) error) (err error) {
	if err := regularfile.CheckTarget(path); err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		mode = info.Mode().Perm()
	}
	file, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			file.Close()
			os.Remove(file.Name())
		}
	}()
	w := bufio.NewWriterSize(file, 1<<20)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := file.Chmod(mode); err != nil {
		return err
	}
	if err := file.Sync(); err != nil {
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	if err := regularfile.CheckTarget(path); err != nil {
		return err
	}
	return os.Rename(file.Name(), path)
}
