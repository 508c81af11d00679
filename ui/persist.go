package ui

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"stwb/designfile"
	"stwb/internal/inputlimit"
	"stwb/model"
	"stwb/render"
	"stwb/samples"
)

// fileStamp is what the design file looked like when it was loaded or saved, to
// notice that someone else changed it before we overwrite it.
type fileStamp struct {
	exists bool
	sum    [32]byte
}

func stampOf(path string, data []byte) fileStamp {
	_, err := os.Stat(path)
	return fileStamp{exists: err == nil, sum: sha256.Sum256(data)}
}

// changedOnDisk reports whether the file is no longer what was loaded or saved.
// The content hash decides, whatever the size and time say: an edit that keeps the
// size, written within the file system's time resolution or with its time set back
// (cp -p, rsync -t, git checkout), is a change; a touch is not.
func (doc *Doc) changedOnDisk() bool {
	if _, err := os.Stat(doc.Path); err != nil {
		return doc.disk.exists // deleted since
	}
	if !doc.disk.exists {
		return true // created by someone else since
	}
	data, err := inputlimit.ReadFile(doc.Path)
	return err != nil || sha256.Sum256(data) != doc.disk.sum
}

// OpenFile opens a design file; a path that does not exist gives an empty design
// that is created on first save (FORMAT.md "stwb [FILE]").
func OpenFile(path string) (*Doc, error) {
	data, err := inputlimit.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		d := newDesign(path)
		return &Doc{D: d, Path: path, New: true, Dirty: true}, nil
	}
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// A blank file (`touch new.yaml; stwb new.yaml`) is where the user means to
		// start a design, as a path that does not exist is: the workbench opens a new
		// design and the first save writes it there. The command line still refuses
		// it with its position (designfile), since there is nothing to check.
		d := newDesign(path)
		return &Doc{D: d, Path: path, Dirty: true, blank: true, disk: stampOf(path, data)}, nil
	}
	f, err := designfile.Parse(path, data)
	if err != nil {
		return nil, err
	}
	return &Doc{D: f.Design, ItemPos: f.ItemPos, file: f, Path: path, disk: stampOf(path, data),
		tempNote: staleTempNote(path)}, nil
}

// staleTempNote removes the temporary files an interrupted save left that a later
// save superseded, and names a newer one, which may hold unsaved work, for the user
// to look at.
func staleTempNote(path string) string {
	removed, newer, err := designfile.StaleTemps(path)
	switch {
	case err != nil:
		return ""
	case len(newer) > 0:
		return fmt.Sprintf(" · %s is newer than the design: an interrupted save? look at it, then delete it", filepath.Base(newer[0]))
	case len(removed) > 0:
		return fmt.Sprintf(" · removed %d stale temporary file(s) of an interrupted save", len(removed))
	}
	return ""
}

// Loading is a document that opens path in the background: the workbench shows its
// first frame at once and takes the design in when it is parsed. A path that does
// not exist is opened at once (there is nothing to parse).
func Loading(path string) (*Doc, error) {
	if _, err := os.Stat(path); err != nil {
		return OpenFile(path)
	}
	return &Doc{D: newDesign(path), Path: path, loading: true}, nil
}

type loadedMsg struct {
	doc *Doc
	err error
}

func (doc *Doc) loadCmd() tea.Cmd {
	path := doc.Path
	return func() tea.Msg {
		d, err := OpenFile(path)
		return loadedMsg{doc: d, err: err}
	}
}

// OpenSample opens an embedded sample; it has no file until it is saved.
func OpenSample(name string) (*Doc, error) {
	f, err := samples.Load(name)
	if err != nil {
		return nil, err
	}
	return &Doc{D: f.Design, ItemPos: f.ItemPos, file: f, Sample: name, Dirty: false}, nil
}

// newDesign is the starting point of a new file: a table with the conventional
// generic key names (PK, SK), on-demand, which the Table pane edits.
func newDesign(path string) *model.Design {
	base := filepath.Base(path)
	name := base[:len(base)-len(filepath.Ext(base))]
	return &model.Design{Version: 1, Name: name,
		Table: model.Table{Name: model.TableNameFrom(name), Key: model.KeySchema{Partition: "PK", Sort: "SK"},
			Billing: model.Billing{Mode: model.OnDemand}, Class: model.ClassStandard}}
}

func (doc *Doc) openedStatus() string {
	switch {
	case doc.loading:
		return "opening " + doc.Path + "…"
	case doc.New:
		return "new design: it is written to " + doc.Path + " on first save (ctrl+s) · ? for help"
	case doc.blank:
		return doc.Path + " is empty: a new design, written to it on first save (ctrl+s) · ? for help"
	case doc.Path == "":
		return "sample " + doc.Sample + ": ctrl+s asks where to save it · ? for help"
	}
	return fmt.Sprintf("opened %s: %s, %s%s · ? for help", doc.Path, render.Count(len(doc.D.Patterns), "pattern"), render.Count(len(doc.D.Items), "item"), doc.tempNote)
}

// saveMu serialises writes of design files and recovery copies, which may run in
// overlapping background commands.
var saveMu sync.Mutex

type saveDone struct {
	top   uint64 // the newest edit the saved snapshot holds
	path  string
	stamp fileStamp
	err   error
}

// save writes the design to its file atomically (writeDesign: temporary file,
// fsync, rename). Unless force is set, a file changed on disk since it was loaded is
// not overwritten without asking.
func (m *Model) save(force bool) tea.Cmd {
	doc := m.w.doc
	if doc.Path == "" {
		m.openPalette("save ")
		return nil
	}
	if !force && doc.New && exists(doc.Path) {
		return m.w.now(askConfirm{question: doc.Path + " was created by someone else since stwb opened it. Replace it? (y/n)",
			onYes: m.w.nowFn(saveForce{})})
	}
	if !force && !doc.New && doc.changedOnDisk() {
		return m.w.now(askConfirm{question: doc.Path + " changed on disk since it was loaded. Overwrite it? (y/n)",
			onYes: m.w.nowFn(saveForce{})})
	}
	return m.saveAs(doc.Path)
}

type saveForce struct{}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func (m *Model) saveAs(path string) tea.Cmd {
	doc := m.w.doc
	// A missing directory is named, and made when the user says so: the atomic
	// writer's own error names its temporary file (issue 25).
	if dir := filepath.Dir(path); !isDir(dir) {
		if exists(dir) {
			m.status, m.statusErr = "not saved: "+dir+" is not a directory", true
			return nil
		}
		return m.w.now(askConfirm{question: fmt.Sprintf("Not saved: the directory %s does not exist. Create it and save there? (y/n)", dir),
			onYes: func() tea.Cmd {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					m.status, m.statusErr = "not saved: "+err.Error(), true
					return nil
				}
				return m.saveAs(path)
			}})
	}
	snap, top := doc.Snapshot(), doc.top()
	m.status, m.statusErr = "saving "+path+"…", false
	return func() tea.Msg {
		saveMu.Lock()
		defer saveMu.Unlock()
		data, err := writeDesign(path, doc.fileOf(snap))
		if err != nil {
			return saveDone{err: err, path: path}
		}
		return saveDone{top: top, path: path, stamp: stampOf(path, data)}
	}
}

// fileOf is the file to save d as: with the comments of the file the document was
// read from, if any.
func (doc *Doc) fileOf(d *model.Design) *designfile.File {
	if doc.file != nil {
		return doc.file.With(d)
	}
	return &designfile.File{Design: d}
}

// writeDesign writes f to path as YAML, atomically (temporary file, fsync, rename),
// after reading the bytes back with the loader: a design stwb would refuse to open
// is never written. It returns the bytes written.
func writeDesign(path string, f *designfile.File) ([]byte, error) {
	data, err := f.Marshal()
	if err != nil {
		return nil, err
	}
	if _, err := designfile.Parse(path, data); err != nil {
		return nil, fmt.Errorf("stwb would not open the file it is about to write, so it is not written: %w", err)
	}
	if err := designfile.WriteFileAtomic(path, data); err != nil {
		return nil, err
	}
	return data, nil
}

func (m *Model) saved(msg saveDone) tea.Cmd {
	doc := m.w.doc
	if msg.err != nil {
		m.status, m.statusErr = "not saved: "+msg.err.Error(), true
		return nil
	}
	oldPath := doc.Path
	doc.Path, doc.Sample, doc.disk = msg.path, "", msg.stamp
	if oldPath != "" && oldPath != msg.path {
		removeRecoveryAt(oldPath)
	}
	// Edits made while the save ran are still unsaved.
	doc.saved = msg.top
	doc.New, doc.blank = false, false
	doc.Dirty = doc.top() != doc.saved
	if !doc.Dirty {
		doc.removeRecovery()
	}
	m.status, m.statusErr = "saved "+msg.path, false
	return nil
}

// RecoveryPath is where the recovery copy of a design file is kept: beside it,
// hidden, so that it survives a crash of the machine as well as of the program.
func RecoveryPath(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".stwb-recover")
}

type recoverDone struct{ err error }

// recoverCmd writes a recovery copy when there are unsaved changes not yet copied.
func (doc *Doc) recoverCmd() tea.Cmd {
	// Only edits are worth recovering: a new file nobody has typed into is not.
	if doc.top() == doc.saved || doc.Path == "" || doc.Rev == doc.recoveredRev {
		return nil
	}
	doc.recoveredRev = doc.Rev
	snap, path, design := doc.fileOf(doc.Snapshot()), RecoveryPath(doc.Path), doc.Path
	return func() tea.Msg {
		saveMu.Lock()
		defer saveMu.Unlock()
		keepMode(path, design)
		return recoverDone{err: snap.Save(path)}
	}
}

// WriteRecovery writes the recovery copy of the unsaved changes now, if they have
// not been copied yet: what a crash must not lose. It returns the copy's path, ""
// when there is nothing to copy (no unsaved change, or a sample with no file yet).
// It runs on the event loop (Update's recover) or after the program has ended (Run).
func (m *Model) WriteRecovery() (string, error) {
	doc := m.w.doc
	if doc.loading || doc.Path == "" || doc.top() == doc.saved {
		return "", nil
	}
	if c := doc.recoverCmd(); c != nil {
		if done, _ := c().(recoverDone); done.err != nil {
			return "", done.err
		}
	}
	return RecoveryPath(doc.Path), nil
}

// Run runs the workbench's program p over m until it ends. When it ends on an
// error (a panic Bubble Tea caught in a command or a drawing, a kill), the unsaved
// changes are copied to the recovery copy before it returns, and the error says
// where: the next start offers them back.
func Run(p *tea.Program, m *Model) error {
	_, err := p.Run()
	if err == nil {
		return nil
	}
	switch path, rerr := m.WriteRecovery(); {
	case rerr != nil:
		return fmt.Errorf("%w; the unsaved changes could not be copied: %v", err, rerr)
	case path != "":
		return fmt.Errorf("%w; the unsaved changes are in %s, offered when %s is opened again", err, path, m.w.doc.Path)
	}
	return err
}

// keepMode gives the recovery copy the design file's permissions before it is
// written (the atomic save keeps the mode of the file it replaces): a 0600 design's
// copy must not be readable by others.
func keepMode(recovery, design string) {
	st, err := os.Stat(design)
	if err != nil {
		return
	}
	if f, err := os.OpenFile(recovery, os.O_CREATE|os.O_EXCL|os.O_WRONLY, st.Mode().Perm()); err == nil {
		f.Close()
		os.Chmod(recovery, st.Mode().Perm()) // past the umask, to exactly the design's
		return
	}
	os.Chmod(recovery, st.Mode().Perm())
}

func (doc *Doc) removeRecovery() {
	if doc.Path != "" {
		removeRecoveryAt(doc.Path)
	}
}

func removeRecoveryAt(path string) { _ = os.Remove(RecoveryPath(path)) }

// Recovery reports a recovery copy of path that is newer than the file (or of a file
// never saved); "" when there is none worth offering.
func Recovery(path string) string {
	rp := RecoveryPath(path)
	ri, err := os.Stat(rp)
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(path); err == nil && !ri.ModTime().After(fi.ModTime()) {
		return ""
	}
	return rp
}

// restoreRecovery replaces the design with the recovery copy, keeping the file path:
// the restored edits are unsaved until the user saves.
func (doc *Doc) restoreRecovery() error {
	rp := RecoveryPath(doc.Path)
	data, err := os.ReadFile(rp)
	if err != nil {
		return err
	}
	f, err := designfile.Parse(doc.Path, data)
	if err != nil {
		return fmt.Errorf("the recovery copy %s does not load: %w", rp, err)
	}
	doc.D, doc.ItemPos, doc.file, doc.Dirty = f.Design, f.ItemPos, f, true
	doc.undo, doc.redo = nil, nil
	doc.saved = ^uint64(0) // matches no edit: dirty until saved
	doc.Rev++
	doc.DataRev++
	return nil
}

// docReplaced is sent when another design is opened in place of the current one.
type docReplaced struct{ doc *Doc }

func (m *Model) replaceDoc(doc *Doc) {
	if !m.w.doc.loading {
		m.w.doc.removeRecovery()
	}
	km, st := m.w.km, m.w.st
	doc.freshRevs()
	*m.w = world{doc: doc, km: km, st: st, posted: m.w.posted}
	// A report, or a run in flight, is about the design being closed.
	m.ver.stop()
	m.ver = verifyState{seq: m.ver.seq}
	m.status, m.statusErr = doc.openedStatus(), false
}
