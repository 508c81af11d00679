// Package docs holds the project's own documents (FORMAT.md: the design file and
// the command line; ARCHITECTURE.md beside the README: the packages) and the tests
// that keep them true to the code. It has no code of its own.
package docs
