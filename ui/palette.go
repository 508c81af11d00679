package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/interop"
	"stwb/model"
	"stwb/render"
	"stwb/samples"
)

// paletteHelp lists the palette's commands, for the palette and the help screen.
var paletteHelp = []string{
	"N or pattern N: go to pattern N",
	"open FILE: open a design file",
	"sample NAME: open a sample",
	"save FILE: save as",
	"export FILE: write the design as YAML",
	"export FORMAT FILE: " + strings.Join(interop.FormatNames(), ", "),
	"gsi NAME PK [SK]: add a global secondary index",
	verifyUsage + ": check the read patterns against the deployed table",
	"verify: show the last verify report again",
	"quit",
}

// palette is the command line opened with ":" (and, prefilled, with ctrl+o and
// ctrl+e and by saving a design that has no file yet).
type palette struct {
	in  textinput.Model
	err string
}

func newPalette(m *Model, prefill string) *palette {
	in := textinput.New()
	in.Prompt = ": "
	in.Cursor.SetMode(cursor.CursorStatic)
	in.SetValue(prefill)
	in.CursorEnd()
	in.Focus()
	return &palette{in: in}
}

func (p *palette) update(m *Model, msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEsc:
		m.palette = nil
		return nil
	case tea.KeyEnter:
		cmd, err := m.runCommand(strings.TrimSpace(p.in.Value()))
		if err != nil {
			p.err = err.Error()
			return nil
		}
		m.palette = nil
		return cmd
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	p.err = ""
	return cmd
}

func (p *palette) view(w, h int) string {
	lines := []string{p.in.View()}
	if p.err != "" {
		lines = append(lines, "✗ "+p.err)
	}
	lines = append(lines, "")
	word := strings.Fields(p.in.Value())
	for _, c := range paletteHelp {
		if len(word) == 0 || strings.HasPrefix(c, word[0]) || word[0][0] >= '0' && word[0][0] <= '9' && strings.HasPrefix(c, "N") {
			lines = append(lines, "  "+c)
		}
	}
	if len(word) > 0 && (word[0] == "sample" || word[0] == "open") {
		// ctrl+o opens the palette at "open ": a design file, or one of the samples.
		lines = append(lines, "")
		for _, l := range wrap("samples (sample NAME): "+strings.Join(samples.Names(), ", "), w-2) {
			lines = append(lines, "  "+l)
		}
	}
	if len(word) > 0 && word[0] == "export" {
		lines = append(lines, "")
		for _, l := range wrap("formats: yaml (export FILE), "+strings.Join(interop.FormatNames(), ", "), w-2) {
			lines = append(lines, "  "+l)
		}
	}
	for i := range lines {
		lines[i] = render.Clip(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// runCommand runs one palette command; an error keeps the palette open with it.
func (m *Model) runCommand(line string) (tea.Cmd, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, nil
	}
	arg := strings.TrimSpace(strings.TrimPrefix(line, f[0]))
	if n, err := strconv.Atoi(f[0]); err == nil {
		return m.gotoPattern(n)
	}
	switch f[0] {
	case "pattern", "p":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return nil, fmt.Errorf("pattern takes a pattern id, such as: pattern 3")
		}
		return m.gotoPattern(n)
	case "open", "o":
		if arg == "" {
			return nil, fmt.Errorf("open takes a file path; for a sample use: sample NAME")
		}
		doc, err := OpenFile(arg)
		if err != nil {
			return nil, err
		}
		return m.confirmReplace(doc), nil
	case "sample":
		if arg == "" {
			return nil, fmt.Errorf("sample takes a name: %s", strings.Join(samples.Names(), ", "))
		}
		doc, err := OpenSample(arg)
		if err != nil {
			return nil, err
		}
		return m.confirmReplace(doc), nil
	case "save", "w":
		if arg == "" {
			return m.save(false), nil
		}
		return m.saveTo(arg)
	case "export":
		switch len(f) {
		case 2:
			return m.export(arg)
		case 3:
			return m.exportAs(f[1], f[2])
		}
		return nil, fmt.Errorf("export takes a file (YAML), or a format and a file: export FORMAT FILE, with FORMAT one of %s", strings.Join(interop.FormatNames(), ", "))
	case "gsi", "index":
		if len(f) < 3 || len(f) > 4 {
			return nil, fmt.Errorf("gsi takes a name and key attributes: gsi NAME PK [SK]")
		}
		ix := model.Index{Name: f[1], Key: model.KeySchema{Partition: f[2]}, Projection: model.Projection{Type: model.ProjectAll}}
		if len(f) == 4 {
			ix.Key.Sort = f[3]
		}
		e, err := addIndexEdit(m.w.doc, ix)
		if err != nil {
			return nil, err
		}
		return cmdOf(applyEdit{e: e, after: func() tea.Cmd { return cmdOf(selectIndex{name: ix.Name}) }}), nil
	case "verify":
		if len(f) == 1 && m.ver.rep != nil {
			m.ver.show = true
			return nil, nil
		}
		a, err := parseVerifyArgs(f[1:])
		if err != nil {
			return nil, err
		}
		return m.startVerify(a), nil
	case "quit", "q":
		return m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")}, m.w.km), nil
	}
	return nil, fmt.Errorf("unknown command %q; the commands are: %s", f[0], strings.Join(paletteHelp, "; "))
}

func (m *Model) gotoPattern(id int) (tea.Cmd, error) {
	for i, p := range m.w.doc.D.Patterns {
		if p.ID == id {
			return cmdOf(selectPattern{index: i}), nil
		}
	}
	return nil, fmt.Errorf("no pattern %d in this design", id)
}

// confirmReplace opens another design, asking first when this one has unsaved changes.
func (m *Model) confirmReplace(doc *Doc) tea.Cmd {
	if m.w.doc.Dirty {
		return cmdOf(askConfirm{question: "There are unsaved changes. Open the other design without saving? (y/n)",
			onYes: cmdOf(docReplaced{doc: doc})})
	}
	return cmdOf(docReplaced{doc: doc})
}

// Writes the palette makes. None replaces a file the user did not name as its target:
// the open design's own file is never an export's target, and a file that exists is
// replaced only after a yes. Every write is atomic (model.WriteFileAtomic).

// sameFile reports whether a and b name one file (the same path, or a link to it).
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ba, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == ba {
		return true
	}
	ai, err1 := os.Stat(a)
	bi, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// designExt reports whether path is named as a design file is.
func designExt(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// saveTo is ":save FILE": the open design's file saves as ctrl+s does; another file
// must be a design file, and one that exists is replaced only after asking.
func (m *Model) saveTo(path string) (tea.Cmd, error) {
	if sameFile(path, m.w.doc.Path) {
		return m.save(false), nil
	}
	if !designExt(path) {
		return nil, fmt.Errorf("save writes the design as YAML: name a .yaml file, or use export FORMAT FILE for %s", strings.Join(interop.FormatNames(), ", "))
	}
	if exists(path) {
		return cmdOf(askConfirm{question: path + " exists. Replace it with this design? (y/n)", onYes: m.saveAs(path)}), nil
	}
	return m.saveAs(path), nil
}

// ownFile refuses an export onto the open design's file.
func (m *Model) ownFile(path string) error {
	if sameFile(path, m.w.doc.Path) {
		return fmt.Errorf("%s is the open design: export writes another file (ctrl+s saves the design)", path)
	}
	return nil
}

// export writes the design to another file as YAML without changing which file is
// being edited.
func (m *Model) export(path string) (tea.Cmd, error) {
	if err := m.ownFile(path); err != nil {
		return nil, err
	}
	snap := m.w.doc.Snapshot()
	write := func() tea.Msg {
		saveMu.Lock()
		defer saveMu.Unlock()
		if _, err := writeDesign(path, snap); err != nil {
			return statusMsg{text: "export failed: " + err.Error(), err: true}
		}
		return statusMsg{text: "exported YAML to " + path}
	}
	if exists(path) {
		return cmdOf(askConfirm{question: path + " exists. Replace it with the exported design? (y/n)", onYes: write}), nil
	}
	return write, nil
}

// exportAs writes the design in one of package interop's formats. A format that
// writes several files (dynamodb-json) puts them beside path under their own names;
// the files are made first, so that each target is known before anything is written.
func (m *Model) exportAs(format, path string) (tea.Cmd, error) {
	if !slices.Contains(interop.FormatNames(), format) {
		return nil, fmt.Errorf("no export format %q; the formats are %s", format, strings.Join(interop.FormatNames(), ", "))
	}
	if err := m.ownFile(path); err != nil {
		return nil, err
	}
	snap, own := m.w.doc.Snapshot(), m.w.doc.Path
	return func() tea.Msg {
		out, err := interop.Export(snap, format, interop.Options{})
		if err != nil {
			return statusMsg{text: "export failed: " + err.Error(), err: true}
		}
		var targets, existing []string
		for _, f := range out.Files {
			p := path
			if f.Name != "" {
				p = filepath.Join(filepath.Dir(path), f.Name)
			}
			if sameFile(p, own) {
				return statusMsg{text: fmt.Sprintf("export refused: it would write %s, the open design", p), err: true}
			}
			if exists(p) {
				existing = append(existing, p)
			}
			targets = append(targets, p)
		}
		write := func() tea.Msg {
			for i, f := range out.Files {
				if err := model.WriteFileAtomic(targets[i], f.Data); err != nil {
					return statusMsg{text: "export failed: " + err.Error(), err: true}
				}
			}
			msg := fmt.Sprintf("exported %s to %s", format, strings.Join(targets, ", "))
			if len(out.Notes) > 0 {
				msg += " · note: " + strings.Join(out.Notes, "; ")
			}
			return statusMsg{text: msg}
		}
		if len(existing) > 0 {
			return askConfirm{question: strings.Join(existing, ", ") + " exists. Replace it with the export? (y/n)", onYes: write}
		}
		return write()
	}, nil
}
