package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"stwb/designfile"
	"stwb/interop"
	"stwb/model"
	"stwb/render"
	"stwb/samples"
)

// paletteCommand is one command of the palette. The palette's list, its matching
// as the user types and the help screen are all made from paletteCommands.
type paletteCommand struct {
	names []string // the first is the command's name; the rest are short forms
	usage string   // how to call it, after the name
	desc  string
	// run runs it; f is the line's words (f[0] the name) and arg the line after the
	// name. An error keeps the palette open with it.
	run func(m *Model, f []string, arg string) (tea.Cmd, error)
}

func (c paletteCommand) help() string {
	u := c.names[0]
	if c.usage != "" {
		u += " " + c.usage
	}
	return u + ": " + c.desc
}

// paletteCommands is set in init: the table refers to functions that read it (the
// unknown-command message lists the commands).
var paletteCommands []paletteCommand

func init() {
	paletteCommands = []paletteCommand{
		{names: []string{"pattern", "p"}, usage: "N", desc: "go to pattern N (or just N)", run: func(m *Model, f []string, arg string) (tea.Cmd, error) {
			n, err := strconv.Atoi(arg)
			if err != nil {
				return nil, fmt.Errorf("pattern takes a pattern id, such as: pattern 3")
			}
			return m.gotoPattern(n)
		}},
		{names: []string{"entity"}, usage: "NAME PK=TEMPLATE [SK=TEMPLATE] [GSI1PK=TEMPLATE ...] [attr:TYPE[:unique] ...]", desc: "add an entity with those key templates", run: (*Model).entityCommand},
		{names: []string{"newpattern", "np"}, usage: "field=value ... (the pattern form's fields: name=..., operation=Query, index=GSI1, key=\"PK = :pk\", values={...}, actions=[...], expectError=...)", desc: "add a pattern", run: (*Model).newPatternCommand},
		{names: []string{"item"}, usage: "ENTITY attr=value ...", desc: "add an item of that entity, its keys built from the templates (values as the design file writes them)", run: (*Model).itemCommand},
		{names: []string{"gsi", "index"}, usage: "NAME PK [SK]", desc: "add a global secondary index", run: func(m *Model, f []string, _ string) (tea.Cmd, error) {
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
			return m.checkedEdit(e, m.w.nowFn(selectIndex{name: ix.Name}))
		}},
		{names: []string{"open", "o"}, usage: "FILE", desc: "open a design file", run: func(m *Model, _ []string, arg string) (tea.Cmd, error) {
			if arg == "" {
				return nil, fmt.Errorf("open takes a file path; for a sample use: sample NAME")
			}
			return m.startOpen(arg), nil
		}},
		{names: []string{"sample"}, usage: "NAME", desc: "open a sample", run: func(m *Model, _ []string, arg string) (tea.Cmd, error) {
			if arg == "" {
				return nil, fmt.Errorf("sample takes a name: %s", strings.Join(samples.Names(), ", "))
			}
			doc, err := OpenSample(arg)
			if err != nil {
				return nil, err
			}
			return m.confirmReplace(doc), nil
		}},
		{names: []string{"import"}, usage: "FILE", desc: "a NoSQL Workbench model (opened as a new design) or DynamoDB JSON items (added to this design)", run: (*Model).importCommand},
		{names: []string{"save", "w"}, usage: "[FILE]", desc: "save, or save as FILE (asks before replacing a file)", run: func(m *Model, _ []string, arg string) (tea.Cmd, error) {
			if arg == "" {
				return m.save(false), nil
			}
			return m.saveTo(arg)
		}},
		{names: []string{"export"}, usage: "[FORMAT] FILE", desc: "write the design as YAML, or as one of " + strings.Join(interop.FormatNames(), ", "), run: func(m *Model, f []string, arg string) (tea.Cmd, error) {
			switch len(f) {
			case 2:
				return m.export(arg)
			case 3:
				return m.exportAs(f[1], f[2])
			}
			return nil, fmt.Errorf("export takes a file (YAML), or a format and a file: export FORMAT FILE, with FORMAT one of %s", strings.Join(interop.FormatNames(), ", "))
		}},
		{names: []string{"verify"}, usage: strings.TrimPrefix(verifyUsage, "verify "), desc: "check the read patterns against the deployed table; verify alone shows the last report", run: func(m *Model, f []string, _ string) (tea.Cmd, error) {
			if len(f) == 1 && m.ver.rep != nil {
				m.ver.show = true
				return nil, nil
			}
			a, err := parseVerifyArgs(f[1:])
			if err != nil {
				return nil, err
			}
			return m.startVerify(a), nil
		}},
		{names: []string{"quit", "q"}, desc: "quit (asks when there are unsaved changes)", run: func(m *Model, _ []string, _ string) (tea.Cmd, error) {
			return m.askQuit(), nil
		}},
	}
}

// paletteHelp is the commands' help lines, for the palette and the help screen.
func paletteHelp() []string {
	out := make([]string, len(paletteCommands))
	for i, c := range paletteCommands {
		out[i] = c.help()
	}
	return out
}

func findCommand(name string) (paletteCommand, bool) {
	for _, c := range paletteCommands {
		if slices.Contains(c.names, name) {
			return c, true
		}
	}
	return paletteCommand{}, false
}

// palette is the command line opened with ":" (and, prefilled, with ctrl+o and
// ctrl+e and by saving a design that has no file yet).
type palette struct {
	in  textinput.Model
	err string
	// hint lists what tab found when it found more than one.
	hint string
	// hist is the commands run this session (the root's), oldest first; at is where
	// up and down are in it (len(*hist): the line being typed, kept in typed).
	hist  *[]string
	at    int
	typed string
}

// openPalette opens the palette over the other dialogs, prefilled.
func (m *Model) openPalette(prefill string) {
	p := newPalette(prefill)
	p.hist, p.at = &m.history, len(m.history)
	m.push(&paletteDialog{dialogBase{m}, p})
}

// maxHistory bounds the palette's history.
const maxHistory = 200

// remember adds a command that ran to the history, once.
func (m *Model) remember(line string) {
	if line == "" || len(m.history) > 0 && m.history[len(m.history)-1] == line {
		return
	}
	m.history = append(m.history, line)
	if len(m.history) > maxHistory {
		m.history = m.history[1:]
	}
}

// walk moves through the history: up to older commands, down to newer ones and
// back to the line being typed.
func (p *palette) walk(up bool) {
	if p.hist == nil {
		return
	}
	h := *p.hist
	if p.at == len(h) {
		p.typed = p.in.Value()
	}
	switch {
	case up && p.at > 0:
		p.at--
	case !up && p.at < len(h):
		p.at++
	default:
		return
	}
	if p.at == len(h) {
		p.in.SetValue(p.typed)
	} else {
		p.in.SetValue(h[p.at])
	}
	p.in.CursorEnd()
}

// complete is tab: the word being typed is completed from what the command takes
// there (paletteCandidates); when several fit, as far as they agree, and the hint
// lists them.
func (p *palette) complete(m *Model) {
	line := p.in.Value()
	start := strings.LastIndexByte(line, ' ') + 1
	words, partial := strings.Fields(line[:start]), line[start:]
	var fit []string
	for _, c := range paletteCandidates(m, words, partial) {
		if strings.HasPrefix(c, partial) && !slices.Contains(fit, c) {
			fit = append(fit, c)
		}
	}
	p.hint = ""
	switch len(fit) {
	case 0:
		p.hint = "nothing to complete here"
		return
	case 1:
		done := fit[0]
		if !strings.HasSuffix(done, "=") && !strings.HasSuffix(done, "/") && !strings.HasSuffix(done, ":") {
			done += " "
		}
		p.in.SetValue(line[:start] + done)
	default:
		p.in.SetValue(line[:start] + commonPrefix(fit))
		p.hint = strings.Join(fit, "  ")
	}
	p.in.CursorEnd()
}

func commonPrefix(ss []string) string {
	pre := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, pre) {
			pre = pre[:len(pre)-1]
		}
	}
	return pre
}

// paletteCandidates is what may be typed as the word after words: a command's
// name first, then what that command takes at that place (entity, attribute,
// index, field, sample and file names).
func paletteCandidates(m *Model, words []string, partial string) []string {
	d := m.w.doc.D
	if len(words) == 0 {
		var out []string
		for _, c := range paletteCommands {
			out = append(out, c.names[0])
		}
		return out
	}
	var out []string
	switch words[0] {
	case "item":
		if len(words) == 1 {
			for _, e := range d.Entities {
				out = append(out, e.Name)
			}
			return out
		}
		if e, ok := entityNamed(d, words[1]); ok {
			for _, a := range e.Attributes {
				if !slices.ContainsFunc(words[2:], func(w string) bool { return strings.HasPrefix(w, a.Name+"=") }) {
					out = append(out, a.Name+"=")
				}
			}
		}
	case "entity":
		if len(words) >= 2 {
			// The key attributes not given a template yet, then the variables of
			// the templates given, to declare (studentId: of STUDENT#{studentId}).
			given := map[string]bool{}
			var vars []string
			for _, w := range words[2:] {
				if k, tmpl, ok := strings.Cut(w, "="); ok {
					given[k] = true
					vars = append(vars, model.TemplateVars(unquote(tmpl))...)
				} else {
					name, _, _ := strings.Cut(w, ":")
					given[name+":"] = true
				}
			}
			for _, k := range model.KeyAttributeNames(&d.Table) {
				if !given[k] {
					out = append(out, k+"=")
				}
			}
			for _, v := range vars {
				if !given[v+":"] && !slices.Contains(out, v+":") {
					out = append(out, v+":")
				}
			}
		}
	case "sample":
		return samples.Names()
	case "open", "o", "save", "export":
		if words[0] == "export" && len(words) == 1 {
			out = append(out, interop.FormatNames()...)
		}
		return append(out, designFiles(partial)...)
	case "newpattern", "np":
		field, _, hasValue := strings.Cut(partial, "=")
		switch {
		case !hasValue:
			for _, f := range patternFields {
				out = append(out, f[0]+"=")
			}
		case field == "operation":
			for _, o := range model.Operations {
				out = append(out, field+"="+string(o))
			}
		case field == "index":
			for _, ix := range d.Table.Indexes {
				out = append(out, field+"="+ix.Name)
			}
		}
	case "pattern", "p":
		for _, pt := range d.Patterns {
			out = append(out, strconv.Itoa(pt.ID))
		}
	}
	return out
}

// designFiles are the design files and directories beside what partial names (the
// working directory when it names none), as partial would continue into them.
func designFiles(partial string) []string {
	dir, prefix := ".", ""
	if i := strings.LastIndexByte(partial, '/'); i >= 0 {
		dir, prefix = partial[:i+1], partial[:i+1]
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		switch {
		case strings.HasPrefix(e.Name(), ".") && !strings.HasPrefix(partial[len(prefix):], "."):
		case e.IsDir():
			out = append(out, prefix+e.Name()+"/")
		case designExt(e.Name()):
			out = append(out, prefix+e.Name())
		}
		if len(out) >= 500 {
			break
		}
	}
	return out
}

func entityNamed(d *model.Design, name string) (model.Entity, bool) {
	for _, e := range d.Entities {
		if e.Name == name {
			return e, true
		}
	}
	return model.Entity{}, false
}

func newPalette(prefill string) *palette {
	in := textinput.New()
	in.Prompt = ": "
	in.CharLimit = maxPromptRunes
	in.Cursor.SetMode(cursor.CursorStatic)
	in.SetValue(prefill)
	in.CursorEnd()
	in.Focus()
	return &palette{in: in}
}

// update is a key in the palette; done says it closes.
func (p *palette) update(m *Model, msg tea.KeyMsg) (_ tea.Cmd, done bool) {
	switch {
	case key.Matches(msg, m.w.km.Close):
		return nil, true
	case key.Matches(msg, m.w.km.Accept):
		line := strings.TrimSpace(p.in.Value())
		cmd, err := m.runCommand(line)
		if err != nil {
			p.err = err.Error()
			return nil, false
		}
		m.remember(line)
		return cmd, true
	case msg.Type == tea.KeyTab:
		p.complete(m)
		return nil, false
	case msg.Type == tea.KeyUp || msg.Type == tea.KeyDown:
		p.walk(msg.Type == tea.KeyUp)
		return nil, false
	}
	var cmd tea.Cmd
	p.in, cmd = p.in.Update(msg)
	p.err, p.hint = "", ""
	return cmd, false
}

func (p *palette) view(w, h int) string {
	lines := []string{p.in.View()}
	if p.err != "" {
		lines = append(lines, "✗ "+p.err)
	}
	if p.hint != "" {
		lines = append(lines, wrap("tab: "+p.hint, w-2)...)
	}
	lines = append(lines, "")
	word := strings.Fields(p.in.Value())
	for _, c := range paletteCommands {
		match := len(word) == 0 || word[0][0] >= '0' && word[0][0] <= '9' && c.names[0] == "pattern"
		for _, n := range c.names {
			match = match || strings.HasPrefix(n, word[0]) || len(word) > 1 && n == word[0]
		}
		if match {
			for _, l := range wrap(c.help(), w-4) {
				lines = append(lines, "  "+l)
			}
		}
	}
	if len(word) > 0 && (word[0] == "sample" || word[0] == "open") {
		// ctrl+o opens the palette at "open ": a design file, or one of the samples.
		lines = append(lines, "")
		for _, l := range wrap("samples (sample NAME): "+strings.Join(samples.Names(), ", "), w-2) {
			lines = append(lines, "  "+l)
		}
		if word[0] == "open" {
			// The designs beside the one open (tab completes them).
			var dir string
			if len(word) > 1 {
				dir = word[1]
			}
			files := designFiles(dir)
			if len(files) == 0 {
				files = []string{"none"}
			}
			for _, l := range wrap("here (tab completes): "+strings.Join(files, ", "), w-2) {
				lines = append(lines, "  "+l)
			}
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
	f, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	if len(f) == 0 {
		return nil, nil
	}
	arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
	if n, err := strconv.Atoi(f[0]); err == nil {
		return m.gotoPattern(n)
	}
	c, ok := findCommand(f[0])
	if !ok {
		var names []string
		for _, c := range paletteCommands {
			names = append(names, c.names[0])
		}
		return nil, fmt.Errorf("unknown command %q; the commands are %s (? lists them)", f[0], strings.Join(names, ", "))
	}
	return c.run(m, f, arg)
}

// checkedEdit is an edit from the palette: refused with the loader's message, the
// palette staying open, when the loader would refuse the design after it.
func (m *Model) checkedEdit(e edit, after func() tea.Cmd) (tea.Cmd, error) {
	if err := refusedError(m.w.refusal(e)); err != nil {
		return nil, err
	}
	return m.w.now(applyEdit{e: e, after: after}), nil
}

// gotoTyped is the # prompt's enter: the pattern whose id was typed, selected.
func (m *Model) gotoTyped(typed string) tea.Cmd {
	if typed == "" {
		return nil
	}
	n, err := strconv.Atoi(typed)
	if err != nil {
		return m.w.statusErr(fmt.Sprintf("%q is not a pattern number; type the number the list shows (# then 8, enter)", typed))
	}
	cmd, err := m.gotoPattern(n)
	if err != nil {
		return m.w.statusErr(err.Error())
	}
	return cmd
}

func (m *Model) gotoPattern(id int) (tea.Cmd, error) {
	for i, p := range m.w.doc.D.Patterns {
		if p.ID == id {
			return m.w.now(selectPattern{index: i}), nil
		}
	}
	return nil, fmt.Errorf("no pattern %d in this design", id)
}

// confirmReplace opens another design, asking first when this one has unsaved changes.
func (m *Model) confirmReplace(doc *Doc) tea.Cmd {
	if m.w.doc.Dirty {
		return m.w.now(askConfirm{question: "There are unsaved changes. Open the other design without saving? (y/n)",
			onYes: m.w.nowFn(docReplaced{doc: doc})})
	}
	return m.w.now(docReplaced{doc: doc})
}

// Writes the palette makes. None replaces a file the user did not name as its target:
// the open design's own file is never an export's target, and a file that exists is
// replaced only after a yes. Every write is atomic (designfile.WriteFileAtomic).

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
		return m.w.now(askConfirm{question: path + " exists. Replace it with this design? (y/n)", onYes: func() tea.Cmd { return m.saveAs(path) }}), nil
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
	snap := m.w.doc.fileOf(m.w.doc.Snapshot())
	write := func() tea.Msg {
		saveMu.Lock()
		defer saveMu.Unlock()
		if _, err := writeDesign(path, snap); err != nil {
			return statusMsg{text: "export failed: " + err.Error(), err: true}
		}
		return statusMsg{text: "exported YAML to " + path}
	}
	if exists(path) {
		return m.w.now(askConfirm{question: path + " exists. Replace it with the exported design? (y/n)", onYes: func() tea.Cmd { return write }}), nil
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
	snap, own, itemPos := m.w.doc.Snapshot(), m.w.doc.Path, m.w.doc.ItemPos
	return func() tea.Msg {
		// The export stwb export writes (interop.ExportFile): what DynamoDB would
		// refuse of it is said with it, and it is still written.
		out, warnings, err := interop.ExportFile(snap, own, itemPos, format, interop.Options{})
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
				if err := designfile.WriteFileAtomic(targets[i], f.Data); err != nil {
					return statusMsg{text: "export failed: " + err.Error(), err: true}
				}
			}
			msg := fmt.Sprintf("exported %s to %s", format, strings.Join(targets, ", "))
			if len(warnings) > 0 {
				msg += " · warning: " + strings.Join(warnings, "; ")
			}
			if len(out.Notes) > 0 {
				msg += " · note: " + strings.Join(out.Notes, "; ")
			}
			return statusMsg{text: msg}
		}
		if len(existing) > 0 {
			return askConfirm{question: strings.Join(existing, ", ") + " exists. Replace it with the export? (y/n)", onYes: func() tea.Cmd { return write }}
		}
		return write()
	}, nil
}
