package designfile

// WriteFileAtomic writes data to path as SaveFile writes a design: a temporary file
// in the same directory, synced, renamed over path, the directory synced. Exports and
// imports of other formats use it so that no file is ever left half written.
func WriteFileAtomic(path string, data []byte) error { return writeFileAtomic(path, data) }
