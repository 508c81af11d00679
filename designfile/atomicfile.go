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

// StaleTemps handles the temporary files a crashed write (kill -9, power loss) left
// beside the design at path (FindStaleTemps): one older than the design itself
// belongs to a write that a later complete one superseded, so it is removed; one
// newer than the design may hold an interrupted save's content or be another stwb's
// write in progress, so it is only returned, for the caller to report. Called before
// a write (the workbench on open, import before replacing the design).
func StaleTemps(path string) (removed, newer []string, err error) {
	older, newer, err := FindStaleTemps(path)
	for _, m := range older {
		if os.Remove(m) == nil {
			removed = append(removed, m)
		}
	}
	return removed, newer, err
}

// FindStaleTemps lists, without touching them, the temporary files beside the design
// at path named as writeFileAtomic names them (".NAME.tmp-*"): those older than the
// design (superseded, safe to remove) and those newer (maybe unsaved work). A
// symlinked design's temp files are looked for beside its target, where they are
// made. Commands that only read the design warn of both.
func FindStaleTemps(path string) (older, newer []string, err error) {
	path, err = resolveWriteTarget(path)
	if err != nil {
		return nil, nil, err
	}
	design, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(path), "."+escapeGlob(filepath.Base(path))+".tmp-*"))
	if err != nil {
		return nil, nil, err
	}
	for _, m := range matches {
		st, err := os.Lstat(m)
		if err != nil || !st.Mode().IsRegular() {
			continue // vanished meanwhile, or not a file stwb made
		}
		if st.ModTime().Before(design.ModTime()) {
			older = append(older, m)
		} else {
			newer = append(newer, m)
		}
	}
	return older, newer, nil
}

// escapeGlob quotes the pattern characters of a file name for filepath.Glob.
func escapeGlob(name string) string {
	var b []byte
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '*', '?', '[', '\\':
			b = append(b, '\\')
		}
		b = append(b, name[i])
	}
	return string(b)
}

// AtomicFile is a file written as a stream and put in place only whole: the bytes go
// to a temporary file beside the target (".NAME.tmp-*"), and Commit syncs it, renames
// it over the target and syncs the directory. Until Commit the target is as it was;
// Abort (or a failed Commit) removes the temporary file. What stwb writes over a
// long run (serve's --record) is written this way, so a crash or a full disk never
// leaves a half-written target.
type AtomicFile struct {
	path string // the file Commit replaces (a symlink's final target)
	mode os.FileMode
	tmp  *os.File
	err  error // the first write error: Commit refuses after it
}

// CreateAtomic starts an atomic write of path. It fails, with the reason, when path
// is a directory or its directory does not exist or cannot be written, so a caller
// learns before the work that its target cannot be written.
func CreateAtomic(path string) (*AtomicFile, error) {
	target, err := resolveWriteTarget(path)
	if err != nil {
		return nil, fmt.Errorf("saving %s: %w", path, err)
	}
	mode := os.FileMode(0o644)
	if st, serr := os.Stat(target); serr == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("saving %s: it is a directory; name a file in it", path)
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("saving %s: %w", path, err)
	}
	return &AtomicFile{path: target, mode: mode, tmp: tmp}, nil
}

// CheckWritable reports why path could not be written atomically (CreateAtomic's
// refusals), creating and removing a temporary file beside it; nil when it can.
func CheckWritable(path string) error {
	f, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	f.Abort()
	return nil
}

// TempName is the temporary file the bytes go to until Commit.
func (f *AtomicFile) TempName() string { return f.tmp.Name() }

// Write appends to the temporary file; after an error every Write and Commit fails.
func (f *AtomicFile) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := writeTemp(f.tmp, p)
	if err != nil {
		f.err = fmt.Errorf("saving %s: %w", f.path, err)
	}
	return n, f.err
}

// Commit puts the written bytes in place of the target. On any failure the
// temporary file is removed and the target is left as it was.
func (f *AtomicFile) Commit() (err error) {
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	if f.err != nil {
		return f.err
	}
	if err = f.tmp.Chmod(f.mode); err != nil {
		return fmt.Errorf("saving %s: %w", f.path, err)
	}
	if err = syncTemp(f.tmp); err != nil {
		return fmt.Errorf("saving %s: %w", f.path, err)
	}
	if err = f.tmp.Close(); err != nil {
		return fmt.Errorf("saving %s: %w", f.path, err)
	}
	if err = renameTemp(f.tmp.Name(), f.path); err != nil {
		return fmt.Errorf("saving %s: %w", f.path, err)
	}
	// The rename is durable only once the directory entry is on disk.
	if dh, derr := os.Open(filepath.Dir(f.path)); derr == nil {
		dh.Sync()
		dh.Close()
	}
	return nil
}

// Abort removes the temporary file; the target is untouched. Safe to call twice.
func (f *AtomicFile) Abort() {
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}
