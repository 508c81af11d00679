// Package docs holds the project's reference (FORMAT.md: the design file; the
// generated commands.md and keys.md; one page each for the workbench, the review,
// cost, import and export, live endpoints, serve and performance) and the tests
// that keep the documents true to the code: every field and flag named, every link
// inside the repository, nothing pointing outside it, and the README a guide of at
// most 350 lines. It has no code of its own.
package docs
