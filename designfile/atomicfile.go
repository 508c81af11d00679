package designfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path as SaveFile writes a design: a temporary file
// in the same directory, synced, renamed over path, the directory synced. Exports and
// imports of other formats use it so that no file is ever left half written.
func WriteFileAtomic(path string, data []byte) error { return writeFileAtomic(path, data) }

// The steps of writeFileAtomic that can fail on a full or broken disk; tests replace
// them to prove that every failure removes the temporary file.
var (
	writeTemp  = (*os.File).Write
	syncTemp   = (*os.File).Sync
	renameTemp = os.Rename
)

// resolveWriteTarget returns the file a write to path must replace: path itself, or,
// when path is a symlink (or a chain of them), the file it finally points to, even
// when that file does not exist yet (a dangling link is written through too).
func resolveWriteTarget(path string) (string, error) {
	for range 40 { // the kernel's own limit on a chain of links (ELOOP)
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil // a regular file, or a new one: written where named
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return path, err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path, fmt.Errorf("too many levels of symbolic links")
}
