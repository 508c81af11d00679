// Package dynalitetest starts dynalite (the DynamoDB emulator from npm) for a test, on
// a free loopback port, in memory, and stops it when the test ends.
//
// dynalite is installed by `cd testenv/dynalite && npm ci` (.ci/run does it). Where it
// is missing or cannot start, a test skips on a developer's machine, naming that
// command, and FAILS when the environment variable CI is set: in CI the differential
// and live suites must run, never silently vanish.
package dynalitetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// InstallCommand is what a developer runs, from the module root, to install dynalite.
const InstallCommand = "cd testenv/dynalite && npm ci"

// Options tune the emulator. The zero value is what most tests want.
type Options struct {
	// CreateTableMs is how long a new table stays CREATING. dynalite's default is
	// 500 ms; tests that create many tables pass 1 to keep the suite quick (0 would
	// mean "default" to dynalite). Tests of waiting for ACTIVE leave it 0.
	CreateTableMs int
	// DeleteTableMs is the same for DELETING.
	DeleteTableMs int
}

// Start starts dynalite with the default options and returns its endpoint URL
// (http://127.0.0.1:PORT). It is stopped by t.Cleanup.
func Start(t testing.TB) (endpoint string) {
	t.Helper()
	return StartWith(t, Options{})
}

// StartWith starts dynalite with the given options; see Start.
func StartWith(t testing.TB, o Options) (endpoint string) {
	t.Helper()
	endpoint, _ = StartProcess(t, o)
	return endpoint
}

// StartProcess is StartWith that also gives the node process's id, so that a
// benchmark can read the emulator's own CPU time (/proc/PID/stat) beside its
// client's. pid is 0 when the test was skipped.
func StartProcess(t testing.TB, o Options) (endpoint string, pid int) {
	t.Helper()
	endpoint, stop, pid, err := launch(o)
	if err != nil {
		unavailable(t, err)
		return "", 0
	}
	t.Cleanup(stop)
	return endpoint, pid
}

// unavailable fails the test in CI and skips it elsewhere.
func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("dynalite is required in CI (CI=%q) but could not start: %v; "+
			"install it with `%s` from the module root", os.Getenv("CI"), err, InstallCommand)
		return // Fatalf ends the test; the return keeps a stand-in TB from also skipping
	}
	t.Skipf("dynalite is not available (%v); install it with `%s` from the module root "+
		"(with CI set this test fails instead of skipping)", err, InstallCommand)
}

// ModuleRoot finds the directory holding go.mod, walking up from the working
// directory (a test runs in its package's folder).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// startTimeout bounds how long node may take to print its port. Loading dynalite
// takes about 0.3 s; the margin is for a CI machine under load.
const startTimeout = 30 * time.Second

func launch(o Options) (endpoint string, stop func(), pid int, err error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", nil, 0, err
	}
	dir := filepath.Join(root, "testenv", "dynalite")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "dynalite", "package.json")); err != nil {
		return "", nil, 0, fmt.Errorf("dynalite is not installed under %s", filepath.Join(dir, "node_modules"))
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return "", nil, 0, fmt.Errorf("node is not on PATH: %w", err)
	}
	args := []string{"start.js", "--port", "0"}
	if o.CreateTableMs > 0 {
		args = append(args, "--createTableMs", strconv.Itoa(o.CreateTableMs))
	}
	if o.DeleteTableMs > 0 {
		args = append(args, "--deleteTableMs", strconv.Itoa(o.DeleteTableMs))
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	// start.js exits when this pipe closes, so dynalite dies with the test binary
	// even when the binary is killed before its cleanups run.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", nil, 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, 0, err
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return "", nil, 0, fmt.Errorf("starting %s start.js: %w", node, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop = func() {
		_ = stdin.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}

	portc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
				portc <- p
				break
			}
		}
		// Keep draining so that dynalite never blocks on a full stdout pipe.
		_, _ = io.Copy(io.Discard, stdout)
	}()
	var port string
	select {
	case port = <-portc:
	case <-done:
		return "", nil, 0, fmt.Errorf("node start.js exited before listening: %s", strings.TrimSpace(stderr.String()))
	case <-time.After(startTimeout):
		stop()
		return "", nil, 0, fmt.Errorf("node start.js printed no port within %v: %s", startTimeout, strings.TrimSpace(stderr.String()))
	}
	endpoint = "http://127.0.0.1:" + port
	if err := waitAnswering(endpoint); err != nil {
		stop()
		return "", nil, 0, err
	}
	return endpoint, stop, cmd.Process.Pid, nil
}

// waitAnswering sends ListTables until dynalite answers with any HTTP response: the
// port is printed once the server listens, but the check makes the contract explicit.
func waitAnswering(endpoint string) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader("{}"))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
		resp, err := client.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("dynalite at %s does not answer: %w", endpoint, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lockedBuffer collects node's stderr for error messages; exec writes it from its
// own goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
