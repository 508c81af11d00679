// Package layers holds no code: its test holds the module's import rules
// (DESIGN.md "Imports point down"), so that a change that breaks one fails the
// suite rather than waiting for a reviewer to notice.
package layers
