package inputlimit

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		bad  bool
	}{
		{"", 0, false}, {"300", 300, false}, {"64KB", 64 << 10, false}, {"500mb", 500 << 20, false},
		{"4GB", 4 << 30, false}, {"2GiB", 2 << 30, false}, {"1 G", 1 << 30, false},
		{"lots", 0, true}, {"-1", 0, true}, {"99999999999GB", 0, true},
	}
	for _, c := range cases {
		got, err := parseSize(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d, bad %v", c.in, got, err, c.want, c.bad)
		}
	}
}

// TestLimits: a file over the limit is refused before it is read, naming the limit
// and the variable that raises it; a device is refused at once; a stream past the
// limit stops at the limit.
func TestLimits(t *testing.T) {
	t.Setenv(EnvVar, "1KB")
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte(strings.Repeat("x", 1025)), 0o644)
	_, err := ReadFile(big)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "big.yaml is 2KB, over stwb's limit of 1KB for one input; set STWB_MAX_INPUT=3KB") {
		t.Errorf("file over the limit: %v", err)
	}
	small := filepath.Join(dir, "small.yaml")
	os.WriteFile(small, []byte(strings.Repeat("x", 1024)), 0o644)
	if data, err := ReadFile(small); err != nil || len(data) != 1024 {
		t.Errorf("file at the limit: %d bytes, %v", len(data), err)
	}
	start := time.Now()
	if _, err := ReadFile("/dev/zero"); !errors.Is(err, ErrDevice) {
		t.Errorf("/dev/zero: %v, want ErrDevice", err)
	}
	if _, err := ReadFile(dir); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	zero, _ := os.Open("/dev/zero")
	defer zero.Close()
	if _, err := ReadAll(zero, "standard input"); !errors.As(err, &tl) || !strings.Contains(err.Error(), "standard input is more than 1KB") {
		t.Errorf("an endless stream: %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	t.Setenv(EnvVar, "")
	if Limit() != Default {
		t.Errorf("default limit %d", Limit())
	}
}
