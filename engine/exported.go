package engine

// WriteUnits is what writing an item of the given size costs: ceil(bytes / 1 KB)
// WCU. The review package uses it to price what an item split by write rate would
// cost, with the engine's own rule rather than a copy.
func WriteUnits(bytes int) float64 { return writeUnits(bytes) }
