package ui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"gopkg.in/yaml.v3"

	"stwb/designfile"
	"stwb/model"
)

// The escape hatch (e on a pattern, an item or an entity): the selected one is
// written as the design file writes it into a temporary file, $EDITOR (vi when it
// is not set) opens it, and what comes back is read by the loader, designfile.Parse, as
// part of a design with the table (and for an item the entities), then applied as an
// edit held to the one validation (checkedApply). Text the loader refuses is kept
// and offered to the editor again, so nothing typed is lost.

// yamlKind is what the editor edits: the section of the design file it belongs to.
type yamlKind string

const (
	yamlPattern yamlKind = "patterns"
	yamlItem    yamlKind = "items"
	yamlEntity  yamlKind = "entities"
)

// openEditorMsg asks the root to open element index of kind in the editor; with a
// path, the text already there (kept from a refused edit).
type openEditorMsg struct {
	kind  yamlKind
	index int
	path  string
}

// editorDone comes back when the editor exits.
type editorDone struct {
	kind  yamlKind
	index int
	path  string
	err   error
}

// runEditor runs the editor; tests replace it with a synchronous run.
var runEditor = func(c *exec.Cmd, done func(error) tea.Msg) tea.Cmd { return tea.ExecProcess(c, done) }

// editorCommand is $EDITOR on path (its words, so that "code -w" works), vi when unset.
func editorCommand(path string) *exec.Cmd {
	words := strings.Fields(os.Getenv("EDITOR"))
	if len(words) == 0 {
		words = []string{"vi"}
	}
	return exec.Command(words[0], append(words[1:], path)...)
}

// sectionYAML writes element index of section kind of d as the design file does:
// one block mapping.
func sectionYAML(d *model.Design, kind yamlKind, index int) ([]byte, error) {
	one := &model.Design{Version: 1, Name: d.Name, Table: d.Table}
	switch kind {
	case yamlPattern:
		one.Patterns = []model.Pattern{d.Patterns[index]}
	case yamlItem:
		one.Entities = d.Entities
		one.Items = []model.Item{withoutDerivedKeys(d, d.Items[index])}
	case yamlEntity:
		one.Entities = []model.Entity{d.Entities[index]}
	}
	data, err := (&designfile.File{Design: one}).Marshal()
	if err != nil {
		return nil, err
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	m := root.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == string(kind) && len(m.Content[i+1].Content) > 0 {
			el := m.Content[i+1].Content[0]
			el.Style &^= yaml.FlowStyle
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			if err := enc.Encode(el); err != nil {
				return nil, err
			}
			return b.Bytes(), nil
		}
	}
	return nil, fmt.Errorf("the design has no %s %d", kind, index)
}

// readSection reads text (one element of section kind) with the loader, in a
// design holding d's table (and entities, for an item).
func readSection(d *model.Design, kind yamlKind, text []byte) (*model.Design, error) {
	base := &model.Design{Version: 1, Name: d.Name, Table: d.Table}
	if kind == yamlItem {
		base.Entities = d.Entities
	}
	head, err := (&designfile.File{Design: base}).Marshal()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteString(string(kind) + ":\n")
	for i, l := range strings.Split(strings.TrimRight(string(text), "\n"), "\n") {
		if i == 0 {
			b.WriteString("  - " + l + "\n")
		} else {
			b.WriteString("    " + l + "\n")
		}
	}
	gotFile, err := designfile.Parse("(editor)", b.Bytes())
	if err != nil {
		return nil, err
	}
	got := gotFile.Design
	n := map[yamlKind]int{yamlPattern: len(got.Patterns), yamlItem: len(got.Items), yamlEntity: len(got.Entities) - len(base.Entities)}[kind]
	if n != 1 {
		return nil, fmt.Errorf("write one %s, not %d", strings.TrimSuffix(string(kind), "s"), n)
	}
	return got, nil
}

// openEditor writes the selected element to a temporary file and opens the editor.
func (m *Model) openEditor(kind yamlKind, index int) tea.Cmd {
	data, err := sectionYAML(m.w.doc.D, kind, index)
	if err != nil {
		return m.w.statusErr("cannot write it for the editor: " + err.Error())
	}
	f, err := os.CreateTemp("", "stwb-*.yaml")
	if err != nil {
		return m.w.statusErr(err.Error())
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return m.w.statusErr(err.Error())
	}
	return m.editFile(kind, index, f.Name())
}

func (m *Model) editFile(kind yamlKind, index int, path string) tea.Cmd {
	return runEditor(editorCommand(path), func(err error) tea.Msg {
		return editorDone{kind: kind, index: index, path: path, err: err}
	})
}

// editorBack takes the editor's text back: read by the loader, applied as an edit
// held to the one validation; refused text is offered to the editor again.
func (m *Model) editorBack(msg editorDone) tea.Cmd {
	d := m.w.doc.D
	again := func(why string) tea.Cmd {
		return m.w.now(askConfirm{question: "Not taken: " + why + " Edit it again? (y: your text in the editor, n: drop it)",
			onYes: m.w.nowFn(openEditorMsg{kind: msg.kind, index: msg.index, path: msg.path}),
			onNo:  func() tea.Cmd { os.Remove(msg.path); return m.w.now(statusMsg{text: "dropped the editor's text"}) }})
	}
	if msg.err != nil {
		os.Remove(msg.path)
		return m.w.statusErr("the editor failed: " + msg.err.Error())
	}
	text, err := os.ReadFile(msg.path)
	if err != nil {
		return m.w.statusErr(err.Error())
	}
	got, err := readSection(d, msg.kind, text)
	if err != nil {
		return again(oneLine(err))
	}
	var e edit
	same := false
	switch msg.kind {
	case yamlPattern:
		if msg.index >= len(d.Patterns) {
			return m.w.statusErr("the pattern is gone")
		}
		p := got.Patterns[0]
		p.Pos, p.ItemPos = d.Patterns[msg.index].Pos, d.Patterns[msg.index].ItemPos
		same = reflect.DeepEqual(p.WithoutPos(), d.Patterns[msg.index].WithoutPos())
		e = sliceEdit(fmt.Sprintf("edited pattern %d in the editor", p.ID), false, patternsOf, opSet, msg.index, d.Patterns[msg.index], p)
	case yamlItem:
		if msg.index >= len(d.Items) {
			return m.w.statusErr("the item is gone")
		}
		same = got.Items[0].Equal(d.Items[msg.index])
		e = itemEdit(fmt.Sprintf("edited item %d in the editor", msg.index), opSet, msg.index, d.Items[msg.index], got.Items[0])
	case yamlEntity:
		if msg.index >= len(d.Entities) {
			return m.w.statusErr("the entity is gone")
		}
		old, ne := d.Entities[msg.index], got.Entities[len(got.Entities)-1]
		ne.Pos = old.Pos
		same = reflect.DeepEqual(ne, old)
		e = sliceEdit("edited entity "+ne.Name+" in the editor", true, entitiesOf, opSet, msg.index, old, ne)
		if ie, ok := entityItemsEdit(d, old, ne); ok {
			e = both(e.label+" and the keys of its items", e, ie)
		}
	}
	if same {
		os.Remove(msg.path)
		return m.w.status("no change from the editor")
	}
	if problems := m.w.refusal(e); len(problems) > 0 {
		return again(refusedError(problems).Error() + ".")
	}
	os.Remove(msg.path)
	return m.w.now(applyEdit{e: e})
}

// oneLine is an error's message on one line (a loader error lists each problem on
// its own), positions in the stand-in design left out.
func oneLine(err error) string {
	var list model.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		s := problemText(list[0])
		if len(list) > 1 {
			s += fmt.Sprintf(" (and %d more)", len(list)-1)
		}
		return s + "."
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ") + "."
}
