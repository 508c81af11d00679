// Package designfile reads and writes design files (FORMAT.md, version 1): YAML
// parsed eagerly (Parse, Load) or lazily (ParseLazily, whose items stay text until
// asked for), and saved canonical, comment-keeping and atomic (File.Save).
//
// A File is a model.Design together with what belongs to its file rather than to
// the design: where each item is written (ItemPos), the text of lazily read items
// (Lazy), and the YAML tree with people's comments that saving keeps. The design's
// rules are model's: a file's problems are model.PosErrors, and what the reader
// does not check as it reads it leaves to model.ValidateRead.
//
// Where to start reading: load.go (the node reader), fastitems.go (the reader of
// one-item-a-line items, which the lazy reader in lazy.go reuses), save.go and
// saveitems.go (the writer).
package designfile
