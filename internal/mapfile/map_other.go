//go:build !unix

package mapfile

import "os"

// mapFile does not map on this system; Read reads the file instead.
func mapFile(*os.File) ([]byte, func(), bool) { return nil, nil, false }
