package render

import "github.com/charmbracelet/lipgloss"

// Styles are the styles render draws with. The workbench builds them from its one
// theme; the command line uses Plain. Entity colours are indexed by the entity's
// position in the design, so an entity keeps its colour in every view.
type Styles struct {
	Header    lipgloss.Style // column headers and section titles
	Dim       lipgloss.Style // secondary text, filtered-out items
	Selected  lipgloss.Style // the cursor row
	Highlight lipgloss.Style // rows the selected pattern returns
	Key       lipgloss.Style // partition key cells
	Rule      lipgloss.Style // page-end lines and separators
	Error     lipgloss.Style
	Warn      lipgloss.Style
	OK        lipgloss.Style
	Added     lipgloss.Style // after-image attributes that a write adds or changes
	Removed   lipgloss.Style // before-image attributes that a write removes or changes
	Entities  []lipgloss.Style
}

// Plain is unstyled: what the command line prints.
func Plain() Styles { return Styles{} }

// Entity is the style of the i-th entity of the design; i < 0 (untyped) is unstyled.
func (s Styles) Entity(i int) lipgloss.Style {
	if i < 0 || len(s.Entities) == 0 {
		return lipgloss.NewStyle()
	}
	return s.Entities[i%len(s.Entities)]
}
