package ui

import (
	"os"

	"github.com/charmbracelet/lipgloss"

	"stwb/render"
)

// Theme is the one place colours are chosen. Every colour is adaptive (a light and a
// dark variant) so the workbench reads on both kinds of terminal.
type Theme struct {
	Accent, Muted, Error, Warn, OK, Selection, Highlight lipgloss.AdaptiveColor
	Entities                                             []lipgloss.AdaptiveColor
}

// DefaultTheme is the workbench's theme.
func DefaultTheme() Theme {
	return Theme{
		Accent:    lipgloss.AdaptiveColor{Light: "#005F87", Dark: "#5FAFFF"},
		Muted:     lipgloss.AdaptiveColor{Light: "#6C6C6C", Dark: "#8A8A8A"},
		Error:     lipgloss.AdaptiveColor{Light: "#AF0000", Dark: "#FF5F5F"},
		Warn:      lipgloss.AdaptiveColor{Light: "#875F00", Dark: "#FFD75F"},
		OK:        lipgloss.AdaptiveColor{Light: "#005F00", Dark: "#87D787"},
		Selection: lipgloss.AdaptiveColor{Light: "#D7E7FF", Dark: "#1C3A5E"},
		Highlight: lipgloss.AdaptiveColor{Light: "#FFF3C4", Dark: "#3A3300"},
		Entities: []lipgloss.AdaptiveColor{
			{Light: "#005FAF", Dark: "#5FAFFF"},
			{Light: "#AF5F00", Dark: "#FFAF5F"},
			{Light: "#008700", Dark: "#87D787"},
			{Light: "#8700AF", Dark: "#D787FF"},
			{Light: "#AF0057", Dark: "#FF87AF"},
			{Light: "#00877F", Dark: "#5FD7D7"},
		},
	}
}

// Styles is every style the workbench draws with, built from one Theme.
type Styles struct {
	Render      render.Styles
	Title       lipgloss.Style // header bar
	Unsaved     lipgloss.Style
	PaneTitle   lipgloss.Style
	PaneActive  lipgloss.Style
	Status      lipgloss.Style
	StatusError lipgloss.Style
	Footer      lipgloss.Style
	Dialog      lipgloss.Style
	Label       lipgloss.Style
	FieldError  lipgloss.Style
	Bar         lipgloss.Style
	Match       lipgloss.Style // a search's matches
}

// NewStyles builds the styles of a theme. With NO_COLOR set (https://no-color.org)
// every colour is dropped; bold, reverse and underline remain so the cursor and
// headers stay visible.
func NewStyles(t Theme) Styles {
	noColor := os.Getenv("NO_COLOR") != ""
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	bg := func(c lipgloss.AdaptiveColor) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle().Reverse(true)
		}
		return lipgloss.NewStyle().Background(c)
	}
	r := render.Styles{
		Header:    fg(t.Accent).Bold(true),
		Dim:       fg(t.Muted).Faint(noColor),
		Selected:  bg(t.Selection).Bold(true),
		Highlight: bg(t.Highlight),
		Key:       lipgloss.NewStyle().Bold(true),
		Rule:      fg(t.Warn),
		Error:     fg(t.Error).Bold(true),
		Warn:      fg(t.Warn),
		OK:        fg(t.OK),
		Added:     fg(t.OK),
		Removed:   fg(t.Error),
	}
	if noColor {
		r.Highlight = lipgloss.NewStyle().Underline(true)
	}
	for _, c := range t.Entities {
		r.Entities = append(r.Entities, fg(c))
	}
	return Styles{
		Render:      r,
		Title:       fg(t.Accent).Bold(true),
		Unsaved:     fg(t.Warn).Bold(true),
		PaneTitle:   fg(t.Muted),
		PaneActive:  fg(t.Accent).Bold(true).Underline(true),
		Status:      fg(t.Muted),
		StatusError: fg(t.Error).Bold(true),
		Footer:      fg(t.Muted),
		Dialog:      lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(t.Accent).Padding(0, 1),
		Label:       fg(t.Accent),
		FieldError:  fg(t.Error),
		Bar:         fg(t.Accent),
		// Under NO_COLOR the selected row is reverse video too: the match under the
		// cursor is underlined as well, so that it still shows there.
		Match: lipgloss.NewStyle().Reverse(true).Underline(noColor),
	}
}
