// Package ui is the workbench: a Bubble Tea program of five panes (patterns, items,
// table and entities, cost, review) over one design, with forms, undo and redo,
// saving and recovery copies. Drawing is done by package render; this package
// arranges and reacts.
package ui
