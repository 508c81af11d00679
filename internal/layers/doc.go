// Package layers holds no code: its tests hold the module's import rules
// (ARCHITECTURE.md: nothing lower knows anything higher), and ARCHITECTURE.md to the
// packages and their imports, so that a change that breaks one fails the suite
// rather than waiting for a reviewer to notice.
package layers
