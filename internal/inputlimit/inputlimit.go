// Package inputlimit bounds what stwb reads from outside: a design file, a JSON data
// file (once decompressed), standard input. A file past the limit, a device such as
// /dev/zero, or an endless pipe ends in an error naming the limit and how to raise
// it, never in a hang or an out-of-memory crash.
package inputlimit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// EnvVar raises (or lowers) the limit: STWB_MAX_INPUT=4GB, 500MB, or a byte count.
const EnvVar = "STWB_MAX_INPUT"

// Default is the limit without EnvVar: 1 GiB, four times a 1,000,000-item design.
const Default int64 = 1 << 30

// Limit is the most bytes stwb reads from one input: EnvVar's value when it is set
// and valid, else Default.
func Limit() int64 {
	n, err := parseSize(os.Getenv(EnvVar))
	if err != nil || n <= 0 {
		return Default
	}
	return n
}

// parseSize reads "4GB", "500MB", "64KB" (powers of 1024, as GiB/MiB/KiB also
// are) or a plain byte count. "" is 0.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%s: %q is not a size such as 4GB", EnvVar, s)
	}
	return n * mult, nil
}

// TooLargeError says an input passed the limit.
type TooLargeError struct {
	Name  string // the file, "standard input", "the decompressed data"
	Size  int64  // its size when known, else 0
	Limit int64
}

func (e *TooLargeError) Error() string {
	size := "more than " + Size(e.Limit)
	if e.Size > 0 {
		size = Size(e.Size)
	}
	return fmt.Sprintf("%s is %s, over stwb's limit of %s for one input; set %s=%s (or more) to raise it",
		e.Name, size, Size(e.Limit), EnvVar, Size(max(e.Size, e.Limit)*2))
}

// Size writes a byte count the way EnvVar takes it (1GB, 512MB, 300B).
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%dMB", (n+(1<<20)-1)>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKB", (n+(1<<10)-1)>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// ErrDevice is returned for a device (/dev/zero, a terminal, a disk): it has no end
// to read to. A pipe is read, within the limit.
var ErrDevice = errors.New("is a device, not a file")

// Check refuses, before anything is read, a device or a regular file over the
// limit. name is how the error names the file.
func Check(name string, fi os.FileInfo) error {
	switch {
	case fi.Mode()&os.ModeDevice != 0:
		return fmt.Errorf("%s %w; name a design file", name, ErrDevice)
	case fi.IsDir():
		return fmt.Errorf("%s is a directory, not a file", name)
	case fi.Mode().IsRegular() && fi.Size() > Limit():
		return &TooLargeError{Name: name, Size: fi.Size(), Limit: Limit()}
	}
	return nil
}

// ReadFile reads the file at path within the limit.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := Check(path, fi); err != nil {
		return nil, err
	}
	return ReadAll(f, path)
}

// ReadAll reads r to its end within the limit; name is how an error names it.
func ReadAll(r io.Reader, name string) ([]byte, error) {
	limit := Limit()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Name: name, Limit: limit}
	}
	return data, nil
}

// Reader is r read as a stream within the limit: once more than the limit has
// been read, Read fails with a *TooLargeError naming name. For inputs read in a
// bounded window (a line at a time) whose total must still respect the limit.
func Reader(r io.Reader, name string) io.Reader {
	return &limitedReader{r: r, name: name, left: Limit() + 1, limit: Limit()}
}

type limitedReader struct {
	r     io.Reader
	name  string
	left  int64 // bytes that may still be read, one more than the limit allows
	limit int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left <= 0 {
		return n, &TooLargeError{Name: l.name, Limit: l.limit}
	}
	return n, err
}
